-- A purchase from the wallet stores its answer in the statement of its debit, the only place the
-- balance it leaves is known under the wallet row's lock; that balance is kept beside the answer
-- and put into it when the answer is read back. None for every other answer.
ALTER TABLE idempotency_keys ADD COLUMN balance_after_cents bigint;
