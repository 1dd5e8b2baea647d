-- A share is bought like a storage extension; its purchase names the share it paid for.
ALTER TABLE purchases DROP CONSTRAINT purchases_kind_check;
ALTER TABLE purchases ADD CONSTRAINT purchases_kind_check CHECK (kind IN ('storage_extension', 'sharing'));
ALTER TABLE purchases ADD COLUMN share_id uuid UNIQUE;
