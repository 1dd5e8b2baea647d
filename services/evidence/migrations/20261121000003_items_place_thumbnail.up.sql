-- The capture's country (reverse geocoding) and its thumbnail's object key.
ALTER TABLE items ADD COLUMN country_code text NOT NULL DEFAULT '';
ALTER TABLE items ADD COLUMN thumbnail_key text;
