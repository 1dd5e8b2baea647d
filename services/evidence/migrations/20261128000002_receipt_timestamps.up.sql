-- A receipt's RFC 3161 timestamp, when an authority is configured: the authority's DER token over
-- the SHA-256 of the receipt's signature, and the time it states. Receipts wait for one in the
-- partial index until the authority answers.
ALTER TABLE items
    ADD COLUMN receipt_timestamp bytea,
    ADD COLUMN receipt_timestamped_at timestamptz,
    ADD CONSTRAINT items_receipt_timestamp_whole
        CHECK ((receipt_timestamp IS NULL) = (receipt_timestamped_at IS NULL));
CREATE INDEX items_receipt_unstamped ON items (id)
    WHERE receipt_signature IS NOT NULL AND receipt_timestamp IS NULL;
