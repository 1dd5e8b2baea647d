ALTER TABLE wallets DROP COLUMN top_up_claimed_at;
