-- Promo codes (spec §3: 7 characters as typed, 'AAA AAA'; stored as the six letters or digits,
-- upper case) that credit the wallet, made by operators
-- (`referrals promo-code create`), each applied at most once per user.
CREATE TABLE promo_codes (
    code text PRIMARY KEY CHECK (code ~ '^[A-Z0-9]{6}$'),
    amount_cents bigint NOT NULL CHECK (amount_cents > 0),
    max_redemptions integer CHECK (max_redemptions > 0),
    expires_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE promo_redemptions (
    id uuid PRIMARY KEY,
    code text NOT NULL REFERENCES promo_codes (code),
    user_id uuid NOT NULL,
    amount_cents bigint NOT NULL,
    idempotency_key text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT promo_redemptions_once_per_user UNIQUE (code, user_id)
);
