ALTER TABLE purchases DROP COLUMN share_id;
DELETE FROM purchases WHERE kind = 'sharing';
ALTER TABLE purchases DROP CONSTRAINT purchases_kind_check;
ALTER TABLE purchases ADD CONSTRAINT purchases_kind_check CHECK (kind IN ('storage_extension'));
