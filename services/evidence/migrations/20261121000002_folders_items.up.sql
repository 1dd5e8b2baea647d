-- Folders keep evidence until their storage date.
CREATE TABLE folders (
    id uuid PRIMARY KEY,
    owner_id uuid NOT NULL,
    name text NOT NULL,
    storage_expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX folders_owner ON folders (owner_id, created_at DESC);

-- Evidence items (spec §3 "File"): registered before upload, then uploaded straight to S3, then
-- verified (size and SHA-256 of the stored object match the device's) or rejected.
CREATE TABLE items (
    id uuid PRIMARY KEY,
    folder_id uuid NOT NULL REFERENCES folders (id) ON DELETE CASCADE,
    owner_id uuid NOT NULL,
    name text NOT NULL,
    media_type text NOT NULL CHECK (media_type IN ('image', 'video', 'audio')),
    mime_type text NOT NULL,
    object_key text NOT NULL UNIQUE,
    file_size bigint NOT NULL CHECK (file_size > 0),
    sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    status text NOT NULL DEFAULT 'awaiting_upload'
        CHECK (status IN ('awaiting_upload', 'uploaded', 'verified', 'rejected')),
    rejection_reason text NOT NULL DEFAULT '',
    upload_id text,
    part_size bigint,
    latitude double precision,
    longitude double precision,
    city text NOT NULL DEFAULT '',
    address text NOT NULL DEFAULT '',
    duration_seconds double precision,
    captured_at timestamptz NOT NULL,
    received_at timestamptz,
    verified_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX items_folder ON items (folder_id, created_at);
CREATE INDEX items_pending ON items (created_at) WHERE status = 'awaiting_upload';
