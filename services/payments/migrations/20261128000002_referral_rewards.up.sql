-- A referral's reward: recorded pending when referrals tells of a friend who signed up with an
-- inviter's code, settled once when the friend's first purchase is paid (both wallets credited in
-- the same transaction as the state), reversed when that purchase is refunded. No foreign keys:
-- the referral can arrive before the friend's customer row, and a purge handles both sides.
CREATE TABLE referral_rewards (
    referred_id uuid PRIMARY KEY,
    referrer_id uuid NOT NULL,
    state text NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'paid', 'capped', 'held', 'refused', 'reversed', 'lapsed')),
    -- Why a reward is held or refused, for the operator who reviews it.
    reason text NOT NULL DEFAULT '',
    -- The first purchase the reward was decided on.
    purchase_id uuid,
    referrer_reward_cents bigint NOT NULL DEFAULT 0 CHECK (referrer_reward_cents >= 0),
    friend_reward_cents bigint NOT NULL DEFAULT 0 CHECK (friend_reward_cents >= 0),
    recorded_at timestamptz NOT NULL DEFAULT now(),
    settled_at timestamptz
);
CREATE INDEX referral_rewards_referrer ON referral_rewards (referrer_id, settled_at);
CREATE INDEX referral_rewards_purchase ON referral_rewards (purchase_id) WHERE purchase_id IS NOT NULL;

ALTER TABLE wallet_entries DROP CONSTRAINT wallet_entries_kind_check;
ALTER TABLE wallet_entries ADD CONSTRAINT wallet_entries_kind_check CHECK (kind IN
    ('top_up', 'auto_top_up', 'promo', 'purchase', 'refund', 'authorisation', 'referral', 'referral_reversal'));

-- The same card on two accounts (a self-referral, or one card behind several friends).
CREATE INDEX payment_methods_fingerprint ON payment_methods (fingerprint);
