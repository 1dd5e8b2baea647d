DROP TABLE stripe_events;
DROP TABLE idempotency_keys;
DROP TABLE purchases;
DROP SEQUENCE purchase_numbers;
DROP TABLE payment_intents;
DROP TABLE wallet_entries;
ALTER TABLE wallets DROP COLUMN top_up_error, DROP COLUMN top_up_error_last4, DROP COLUMN closed_at;
DROP TABLE payment_methods;
ALTER TABLE customers DROP COLUMN first_name, DROP COLUMN last_name, DROP COLUMN first_authorised_at;
