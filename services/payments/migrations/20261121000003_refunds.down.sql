ALTER TABLE purchases DROP COLUMN refunded_at;
