ALTER TABLE account_directory DROP COLUMN deleted_at;
