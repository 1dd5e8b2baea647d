-- Cards, the wallet ledger, PaymentIntents, purchases, idempotency records and processed Stripe
-- events (issue 4). Money is integer cents (USD).

ALTER TABLE customers
    ADD COLUMN first_name text,
    ADD COLUMN last_name text,
    -- When the user's first card was authorised (the one-time $0.50 charge, spec §9).
    ADD COLUMN first_authorised_at timestamptz;

-- A card the browser created at Stripe and registered here. It is `saved` once its SetupIntent
-- succeeded; only saved cards are listed and usable.
CREATE TABLE payment_methods (
    id text PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES customers (user_id) ON DELETE CASCADE,
    brand text NOT NULL,
    last4 text NOT NULL,
    fingerprint text NOT NULL,
    exp_month integer NOT NULL,
    exp_year integer NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'saved', 'failed', 'duplicate', 'removed')),
    setup_intent_id text,
    created_at timestamptz NOT NULL DEFAULT now(),
    saved_at timestamptz,
    removed_at timestamptz
);
CREATE INDEX payment_methods_user ON payment_methods (user_id, created_at);
-- Spec §4: a card with the fingerprint of a saved card is a duplicate.
CREATE UNIQUE INDEX payment_methods_saved_fingerprint
    ON payment_methods (user_id, fingerprint) WHERE status = 'saved';

ALTER TABLE wallets
    -- The stored account is active while it has a wallet card.
    ADD COLUMN top_up_error text,
    ADD COLUMN top_up_error_last4 text,
    ADD COLUMN closed_at timestamptz;

-- The ledger: every change of a balance is one entry, written in the same transaction as the
-- balance it leaves. `reference` makes each money movement happen once (a PaymentIntent id, a
-- purchase id, a promo redemption id).
CREATE TABLE wallet_entries (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES wallets (user_id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('top_up', 'auto_top_up', 'promo', 'purchase', 'refund', 'authorisation')),
    amount_cents bigint NOT NULL CHECK (amount_cents <> 0),
    balance_after_cents bigint NOT NULL CHECK (balance_after_cents >= 0),
    reference text NOT NULL,
    description text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT wallet_entries_reference UNIQUE (reference)
);
CREATE INDEX wallet_entries_user ON wallet_entries (user_id, created_at);

-- Every PaymentIntent we created, with what its success means.
CREATE TABLE payment_intents (
    id text PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES customers (user_id) ON DELETE CASCADE,
    purpose text NOT NULL CHECK (purpose IN ('wallet_create', 'top_up', 'auto_top_up', 'shortfall', 'card_purchase', 'first_authorisation')),
    amount_cents bigint NOT NULL CHECK (amount_cents > 0),
    payment_method_id text NOT NULL,
    -- For wallet_create: the auto top-up amount the wallet gets.
    auto_topping_up_amount_cents bigint,
    status text NOT NULL,
    credited_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_intents_pending ON payment_intents (created_at) WHERE credited_at IS NULL;

-- Transaction numbers shown to users (EVD-<year>-<n>).
CREATE SEQUENCE purchase_numbers;

CREATE TABLE purchases (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES customers (user_id) ON DELETE CASCADE,
    transaction_number text NOT NULL UNIQUE,
    kind text NOT NULL CHECK (kind IN ('storage_extension')),
    description text NOT NULL,
    folder_id uuid,
    months integer,
    storage_expires_at timestamptz,
    price_cents bigint NOT NULL,
    service_fee_cents bigint NOT NULL,
    processing_fee_cents bigint NOT NULL,
    wallet_saving_cents bigint NOT NULL,
    total_cents bigint NOT NULL,
    wallet_total_cents bigint NOT NULL,
    paid_from_wallet_cents bigint NOT NULL CHECK (paid_from_wallet_cents >= 0),
    charged_to_card_cents bigint NOT NULL CHECK (charged_to_card_cents >= 0),
    card_payment_intent_id text,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX purchases_user ON purchases (user_id, created_at DESC);

-- A money-moving request's key and its first answer, written in the same transaction as the
-- write it made, so a retry returns that answer and moves no money.
CREATE TABLE idempotency_keys (
    user_id uuid NOT NULL,
    key text NOT NULL,
    operation text NOT NULL,
    request_hash text NOT NULL,
    response bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, key)
);

-- Stripe webhook events already processed (Stripe delivers at least once).
CREATE TABLE stripe_events (
    id text PRIMARY KEY,
    type text NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now()
);
