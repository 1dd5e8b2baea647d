DROP INDEX folders_to_purge;
DROP INDEX folders_to_expire;
ALTER TABLE items DROP COLUMN purged_at;
ALTER TABLE folders DROP COLUMN purged_at;
ALTER TABLE folders DROP COLUMN expired_at;
