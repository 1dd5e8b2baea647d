ALTER TABLE share_items DROP COLUMN receipt_key_id, DROP COLUMN receipt_signature, DROP COLUMN receipt;
