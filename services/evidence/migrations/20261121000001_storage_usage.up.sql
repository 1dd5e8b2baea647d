-- Per-user storage usage, created with the account (AccountCreated) and kept in step with the
-- user's files.
CREATE TABLE storage_usage (
    user_id uuid PRIMARY KEY,
    used_bytes bigint NOT NULL DEFAULT 0 CHECK (used_bytes >= 0),
    file_count bigint NOT NULL DEFAULT 0 CHECK (file_count >= 0),
    folder_count bigint NOT NULL DEFAULT 0 CHECK (folder_count >= 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
