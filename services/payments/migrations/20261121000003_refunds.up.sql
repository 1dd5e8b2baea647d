-- A paid storage extension that could not be applied is refunded to the wallet (issue 4).
ALTER TABLE purchases ADD COLUMN refunded_at timestamptz;
