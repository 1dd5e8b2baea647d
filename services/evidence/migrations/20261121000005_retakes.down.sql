DROP INDEX items_pending;
CREATE INDEX items_pending ON items (created_at) WHERE status = 'awaiting_upload';
ALTER TABLE items DROP COLUMN upload_started_at;
ALTER TABLE items DROP COLUMN previous_file_size;
ALTER TABLE items DROP COLUMN previous_thumbnail_key;
ALTER TABLE items DROP COLUMN previous_object_key;
