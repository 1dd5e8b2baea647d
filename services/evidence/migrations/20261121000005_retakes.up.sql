-- Retakes: a new capture replaces an item's file. Until the new upload is verified the item keeps
-- its previous verified object (and thumbnail), which downloads still serve; verification of the
-- new one deletes them.
ALTER TABLE items ADD COLUMN previous_object_key text;
ALTER TABLE items ADD COLUMN previous_thumbnail_key text;
ALTER TABLE items ADD COLUMN previous_file_size bigint;
-- When the current upload started (a retake starts a new one); abandoned uploads are swept by it.
ALTER TABLE items ADD COLUMN upload_started_at timestamptz;
UPDATE items SET upload_started_at = created_at;
ALTER TABLE items ALTER COLUMN upload_started_at SET NOT NULL;
ALTER TABLE items ALTER COLUMN upload_started_at SET DEFAULT now();
DROP INDEX items_pending;
CREATE INDEX items_pending ON items (upload_started_at) WHERE status = 'awaiting_upload';
