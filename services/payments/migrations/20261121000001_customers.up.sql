-- One Stripe customer per user, created from AccountCreated (or on demand, whichever is first).
CREATE TABLE customers (
    user_id uuid PRIMARY KEY,
    email text NOT NULL,
    stripe_customer_id text UNIQUE,
    default_payment_method text,
    one_time_benefit_applied boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- The CreditCard Wallet: the balance is kept in the same transaction as each ledger entry and
-- can never go below zero.
CREATE TABLE wallets (
    user_id uuid PRIMARY KEY REFERENCES customers (user_id) ON DELETE CASCADE,
    balance_cents bigint NOT NULL DEFAULT 0 CHECK (balance_cents >= 0),
    currency text NOT NULL DEFAULT 'usd',
    auto_topping_up_amount_cents bigint NOT NULL DEFAULT 0 CHECK (auto_topping_up_amount_cents >= 0),
    payment_method text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
