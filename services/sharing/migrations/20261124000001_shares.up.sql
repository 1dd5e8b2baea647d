-- Shares of a folder's items as watermarked copies. A share is bought (payments) and then sent:
-- each recipient (or the public link) is a delivery with its own transaction number and copies
-- (its link's secret is an HMAC of its id, so it is never stored); copies are rendered by this service's worker from the evidence service's
-- originals and stored under their own prefix.
CREATE TABLE shares (
    id uuid PRIMARY KEY,
    owner_id uuid NOT NULL,
    folder_id uuid NOT NULL,
    folder_name text NOT NULL,
    copy_type text NOT NULL CHECK (copy_type IN ('authenticated', 'unauthenticated')),
    -- The owner's name on authenticated copies, as it was when the share was made.
    generated_for text,
    -- 'awaiting_payment' until payments answers; then 'active' until revoked.
    state text NOT NULL CHECK (state IN ('awaiting_payment', 'active', 'revoked')),
    payment_transaction_number text,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
);
CREATE INDEX shares_folder ON shares (owner_id, folder_id, created_at DESC);

-- A create-share request's idempotency key: a retry with the same key continues the same share,
-- and so the same payment (payments keeps the key it was given, `share-<share id>`).
CREATE TABLE share_requests (
    owner_id uuid NOT NULL,
    idempotency_key text NOT NULL,
    request_hash text NOT NULL,
    share_id uuid NOT NULL REFERENCES shares (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (owner_id, idempotency_key)
);

-- What each shared item was when it was shared: verification answers from this, whatever
-- happens to the original later.
CREATE TABLE share_items (
    share_id uuid NOT NULL REFERENCES shares (id) ON DELETE CASCADE,
    item_id uuid NOT NULL,
    position integer NOT NULL,
    name text NOT NULL,
    media_type text NOT NULL CHECK (media_type IN ('image', 'video', 'audio')),
    original_sha256 text NOT NULL,
    captured_at timestamptz NOT NULL,
    received_at timestamptz,
    latitude double precision,
    longitude double precision,
    city text NOT NULL DEFAULT '',
    address text NOT NULL DEFAULT '',
    duration_seconds double precision,
    PRIMARY KEY (share_id, item_id)
);

CREATE TABLE deliveries (
    id uuid PRIMARY KEY,
    share_id uuid NOT NULL REFERENCES shares (id) ON DELETE CASCADE,
    channel text NOT NULL CHECK (channel IN ('email', 'sms', 'link')),
    -- Where codes go: the e-mail address, or the phone number as +<country><national>; empty for
    -- the public link.
    address text NOT NULL,
    -- What the banner says under 'Sent To'.
    sent_to text NOT NULL,
    transaction_number text NOT NULL UNIQUE,
    -- The public link can be turned off and on; a recipient's link is on until the share ends.
    active boolean NOT NULL DEFAULT true,
    state text NOT NULL DEFAULT 'sent' CHECK (state IN ('sent', 'opened', 'code_checked')),
    notified_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX deliveries_share ON deliveries (share_id);
CREATE INDEX deliveries_to_notify ON deliveries (created_at) WHERE notified_at IS NULL AND channel <> 'link';

CREATE TABLE copies (
    id uuid PRIMARY KEY,
    delivery_id uuid NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    share_id uuid NOT NULL REFERENCES shares (id) ON DELETE CASCADE,
    item_id uuid NOT NULL,
    state text NOT NULL DEFAULT 'preparing' CHECK (state IN ('preparing', 'ready', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    -- A worker holds the copy until then; past it, another worker may take it over.
    claimed_until timestamptz,
    object_key text,
    content_type text,
    sha256 text,
    size_bytes bigint,
    error text,
    generated_at timestamptz,
    UNIQUE (delivery_id, item_id)
);
CREATE INDEX copies_to_render ON copies (id) WHERE state = 'preparing';
CREATE INDEX copies_sha256 ON copies (sha256);

-- Codes sent to a recipient's own address: single use, 10 minutes, 5 tries, stored hashed.
CREATE TABLE access_codes (
    id uuid PRIMARY KEY,
    delivery_id uuid NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    code_hash bytea NOT NULL,
    tries integer NOT NULL DEFAULT 0,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- A checked code's access token (stored hashed): it opens one delivery until it expires or
-- the share is revoked.
CREATE TABLE access_tokens (
    token_hash bytea PRIMARY KEY,
    delivery_id uuid NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- The custody log of an item: append-only and hash-chained (each entry's hash covers the one
-- before), so a changed or removed entry breaks the chain from there on.
CREATE TABLE custody_entries (
    item_id uuid NOT NULL,
    seq bigint NOT NULL,
    owner_id uuid NOT NULL,
    kind text NOT NULL,
    at timestamptz NOT NULL,
    detail text NOT NULL,
    prev_hash text NOT NULL,
    hash text NOT NULL,
    PRIMARY KEY (item_id, seq)
);
CREATE INDEX custody_owner ON custody_entries (owner_id);

-- Entries are never changed; they go only with their owner's account.
CREATE FUNCTION custody_entries_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'custody entries are append-only';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER custody_entries_no_update BEFORE UPDATE ON custody_entries
    FOR EACH ROW EXECUTE FUNCTION custody_entries_append_only();
