DROP INDEX shares_items_held;
ALTER TABLE shares DROP COLUMN items_held;
