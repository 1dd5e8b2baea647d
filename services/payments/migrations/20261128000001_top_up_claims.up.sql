-- An auto top-up in flight: claimed by one caller before the Stripe charge and released after, so
-- concurrent purchases top up once without a row lock held while Stripe answers.
ALTER TABLE wallets ADD COLUMN top_up_claimed_at timestamptz;
