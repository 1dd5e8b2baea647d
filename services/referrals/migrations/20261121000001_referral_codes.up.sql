-- Each user's own referral code, made when the account is created.
CREATE TABLE referral_codes (
    user_id uuid PRIMARY KEY,
    code text NOT NULL UNIQUE,
    type text NOT NULL DEFAULT 'individual',
    created_at timestamptz NOT NULL DEFAULT now()
);
