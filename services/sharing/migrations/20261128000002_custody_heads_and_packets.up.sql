-- The signed heads of custody logs: at least daily, each item whose log grew gets its last entry
-- (sequence number and hash) signed, so a history rewritten later no longer matches what an older
-- packet holds. Append-only, like the entries.
CREATE TABLE custody_heads (
    item_id uuid NOT NULL,
    seq bigint NOT NULL,
    owner_id uuid NOT NULL,
    hash text NOT NULL,
    signed_at timestamptz NOT NULL,
    -- The exact bytes signed (canonical JSON) and the Ed25519 signature in base64.
    payload text NOT NULL,
    signature text NOT NULL,
    PRIMARY KEY (item_id, seq)
);
CREATE INDEX custody_heads_owner ON custody_heads (owner_id);
CREATE TRIGGER custody_heads_no_update BEFORE UPDATE ON custody_heads
    FOR EACH ROW EXECUTE FUNCTION custody_entries_append_only();

-- A download of an evidence packet the owner asked for: the link's secret (hashed) opens it until
-- it expires, so a browser can download it as a plain link. No items named: the whole folder.
CREATE TABLE packet_downloads (
    token_hash bytea PRIMARY KEY,
    owner_id uuid NOT NULL,
    folder_id uuid NOT NULL,
    item_ids uuid[] NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);
CREATE INDEX packet_downloads_owner ON packet_downloads (owner_id);
CREATE INDEX packet_downloads_expiry ON packet_downloads (expires_at);
