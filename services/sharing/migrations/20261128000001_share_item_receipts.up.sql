-- The original's signed receipt as it was when shared (evidence signs it on verification), so the
-- public verification page can show it, and anyone check it against the published key.
ALTER TABLE share_items
    ADD COLUMN receipt text,
    ADD COLUMN receipt_signature text,
    ADD COLUMN receipt_key_id text;
