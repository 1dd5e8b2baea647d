ALTER TABLE items DROP CONSTRAINT items_receipt_signed, DROP COLUMN receipt_signature, DROP COLUMN receipt;
