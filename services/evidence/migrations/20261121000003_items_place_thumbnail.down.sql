ALTER TABLE items DROP COLUMN thumbnail_key;
ALTER TABLE items DROP COLUMN country_code;
