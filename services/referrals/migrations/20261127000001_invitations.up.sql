-- Who each account is, from AccountCreated: a referral code check answers its owner's first
-- name, and an invitation to, or a sign-up with, the inviter's own address earns nothing.
CREATE TABLE referral_directory (
    user_id uuid PRIMARY KEY,
    email text NOT NULL,
    -- '+' country code and national number without spaces; '' when the account has none.
    phone text NOT NULL,
    first_name text NOT NULL DEFAULT ''
);
CREATE INDEX referral_directory_email ON referral_directory (email);
CREATE INDEX referral_directory_phone ON referral_directory (phone) WHERE phone <> '';

-- The invitations a user sent with their referral link, one per address.
CREATE TABLE invitations (
    id uuid PRIMARY KEY,
    referrer_id uuid NOT NULL,
    channel text NOT NULL CHECK (channel IN ('email', 'sms')),
    -- A lower-case e-mail address, or a phone number as in referral_directory.
    address text NOT NULL,
    name text NOT NULL DEFAULT '',
    sends integer NOT NULL DEFAULT 1 CHECK (sends > 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    last_sent_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT invitations_once_per_address UNIQUE (referrer_id, channel, address)
);
CREATE INDEX invitations_recent ON invitations (referrer_id, last_sent_at);

-- A friend who signed up with someone's referral code: one referrer per account, ever.
CREATE TABLE referrals (
    referred_id uuid PRIMARY KEY,
    referrer_id uuid NOT NULL,
    -- The friend's addresses when they signed up, to show which invitation it answered.
    email text NOT NULL,
    phone text NOT NULL,
    state text NOT NULL DEFAULT 'signed_up'
        CHECK (state IN ('signed_up', 'rewarded', 'held', 'reversed', 'lapsed')),
    -- What the inviter earned from this friend (cents), once rewarded.
    referrer_reward_cents bigint NOT NULL DEFAULT 0 CHECK (referrer_reward_cents >= 0),
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX referrals_of_referrer ON referrals (referrer_id);
