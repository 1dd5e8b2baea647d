-- A verified item's signed receipt: the exact bytes signed (canonical JSON, see
-- src/receipts.rs) and the Ed25519 signature in base64. Items verified before receipts were
-- signed have none.
ALTER TABLE items
    ADD COLUMN receipt text,
    ADD COLUMN receipt_signature text,
    ADD CONSTRAINT items_receipt_signed CHECK ((receipt IS NULL) = (receipt_signature IS NULL));
