-- Card charges that were declined: a wallet creation or top-up the browser confirmed, an auto
-- top-up, a transfer for a purchase, a card purchase, the first authorisation. Nothing moved, but
-- the transaction-info screen lists each attempt with its card. `reference` (the PaymentIntent or
-- the idempotency key sent to Stripe) records one attempt once however often it is reported.
CREATE TABLE declined_charges (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES customers (user_id) ON DELETE CASCADE,
    purpose text NOT NULL CHECK (purpose IN ('wallet_create', 'top_up', 'auto_top_up', 'shortfall', 'card_purchase', 'first_authorisation')),
    amount_cents bigint NOT NULL CHECK (amount_cents > 0),
    payment_method_id text NOT NULL,
    message text NOT NULL,
    reference text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT declined_charges_reference UNIQUE (reference)
);
CREATE INDEX declined_charges_user ON declined_charges (user_id, created_at);
