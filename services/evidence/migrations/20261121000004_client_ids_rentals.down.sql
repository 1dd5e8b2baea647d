ALTER TABLE items DROP COLUMN section;
DROP TABLE rentals;
ALTER TABLE items DROP CONSTRAINT items_folder_client_id;
ALTER TABLE items DROP COLUMN client_id;
ALTER TABLE folders DROP CONSTRAINT folders_owner_client_id;
ALTER TABLE folders DROP COLUMN client_id;
