ALTER TABLE idempotency_keys DROP COLUMN balance_after_cents;
