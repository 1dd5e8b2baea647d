-- Contribution links: a participant of an organization invites someone without an account to
-- send files into one organization folder. The link's token is kept hashed; the contributor
-- proves an e-mail address with a 6-digit code (hashed, single use, limited tries) and gets a
-- contribution token (hashed) reaching that folder only. The files themselves live in evidence.
CREATE TABLE contribution_links (
    id uuid PRIMARY KEY,
    folder_id uuid NOT NULL,
    organization_name text NOT NULL,
    created_by uuid NOT NULL,
    token_hash bytea NOT NULL UNIQUE,
    channel text NOT NULL CHECK (channel IN ('email', 'sms')),
    address text NOT NULL,
    sent_to text NOT NULL,
    expires_at timestamptz NOT NULL,
    max_submissions integer NOT NULL CHECK (max_submissions BETWEEN 1 AND 100),
    submissions integer NOT NULL DEFAULT 0,
    revoked_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contribution_links_folder ON contribution_links (folder_id, created_at DESC);

CREATE TABLE contributor_codes (
    id uuid PRIMARY KEY,
    link_id uuid NOT NULL REFERENCES contribution_links (id) ON DELETE CASCADE,
    email text NOT NULL,
    code_hash bytea NOT NULL,
    tries integer NOT NULL DEFAULT 0,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contributor_codes_link ON contributor_codes (link_id);

CREATE TABLE contributors (
    id uuid PRIMARY KEY,
    link_id uuid NOT NULL REFERENCES contribution_links (id) ON DELETE CASCADE,
    folder_id uuid NOT NULL,
    email text NOT NULL,
    token_hash bytea NOT NULL UNIQUE,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
-- A submission is counted once per file, by the device's id for it, before the file is
-- registered (a retry of a rejected file is the same submission).
CREATE TABLE contribution_submissions (
    link_id uuid NOT NULL REFERENCES contribution_links (id) ON DELETE CASCADE,
    client_id uuid NOT NULL,
    PRIMARY KEY (link_id, client_id)
);
