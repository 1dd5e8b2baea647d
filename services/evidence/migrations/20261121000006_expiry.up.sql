-- Expiry: the sweeper marks a folder whose storage date has passed (and publishes FolderExpired
-- once); an extension clears the mark. After the grace period its files are deleted from S3 and
-- its items marked purged: the rows stay, so the folder still shows what was there.
ALTER TABLE folders ADD COLUMN expired_at timestamptz;
ALTER TABLE folders ADD COLUMN purged_at timestamptz;
ALTER TABLE items ADD COLUMN purged_at timestamptz;
CREATE INDEX folders_to_expire ON folders (storage_expires_at) WHERE expired_at IS NULL;
CREATE INDEX folders_to_purge ON folders (storage_expires_at)
    WHERE expired_at IS NOT NULL AND purged_at IS NULL;
