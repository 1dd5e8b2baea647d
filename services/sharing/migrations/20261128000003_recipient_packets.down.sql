ALTER TABLE packet_downloads DROP COLUMN delivery_id;
ALTER TABLE custody_entries DROP COLUMN delivery_id;
ALTER TABLE custody_entries DROP COLUMN share_id;
