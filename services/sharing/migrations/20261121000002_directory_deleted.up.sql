-- A deleted account's shares are paused until it is recovered or purged.
ALTER TABLE account_directory ADD COLUMN deleted_at timestamptz;
