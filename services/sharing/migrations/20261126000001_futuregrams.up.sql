-- Futuregrams: a share bought now and released later, by date or by its executors. Until the
-- release its share is 'scheduled': its deliveries (recipients, with their transaction numbers)
-- exist, but no copy is made, no link is sent and no number verifies.
ALTER TABLE shares DROP CONSTRAINT shares_state_check;
ALTER TABLE shares ADD CONSTRAINT shares_state_check
    CHECK (state IN ('awaiting_payment', 'scheduled', 'active', 'revoked'));

CREATE TABLE futuregrams (
    share_id uuid PRIMARY KEY REFERENCES shares (id) ON DELETE CASCADE,
    owner_id uuid NOT NULL,
    -- The capture situation it was made for (the capture screen's `situation`).
    situation_id uuid NOT NULL,
    -- Released at this time unless vetoed; without it, when executors ask and the owner lets
    -- the waiting period pass.
    release_at timestamptz,
    -- pending: waiting for its date or for executors; waiting: executors asked, the owner may
    -- cancel until due_at; released; vetoed (an executor stopped a dated release).
    state text NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'waiting', 'released', 'vetoed')),
    -- When the scheduler next acts on it (reminds the executors, or releases); null: nothing due.
    due_at timestamptz,
    reminded_at timestamptz,
    -- How many recipients were paid for: an update may change them, not add more.
    recipients_paid integer NOT NULL,
    released_at timestamptz,
    -- Evidence keeps the items until the released copies are made.
    hold_released boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX futuregrams_situation ON futuregrams (owner_id, situation_id, created_at);
CREATE INDEX futuregrams_due ON futuregrams (due_at) WHERE state IN ('pending', 'waiting');
CREATE INDEX futuregrams_holding ON futuregrams (released_at) WHERE state = 'released' AND NOT hold_released;

-- The people who may ask for the release or stop it. Their link's secret is stored hashed; a
-- removed executor's row goes, and their link with it.
CREATE TABLE futuregram_executors (
    id uuid PRIMARY KEY,
    share_id uuid NOT NULL REFERENCES futuregrams (share_id) ON DELETE CASCADE,
    email text NOT NULL,
    -- +<country><national>, when given.
    phone text,
    token_hash bytea NOT NULL UNIQUE,
    state text NOT NULL DEFAULT 'invited' CHECK (state IN ('invited', 'accepted', 'declined')),
    release_requested_at timestamptz,
    vetoed_at timestamptz,
    responded_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (share_id, email)
);

-- A released futuregram's view link for one recipient (stored hashed). An expired one can be
-- exchanged for a fresh link sent to the recipient's own address.
CREATE TABLE futuregram_views (
    token_hash bytea PRIMARY KEY,
    delivery_id uuid NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX futuregram_views_delivery ON futuregram_views (delivery_id);

-- Messages decided inside a transaction (an invitation, a release's links, a notice to the
-- owner) and sent after it commits; a row goes once sent, so links in it are not kept.
CREATE TABLE futuregram_outbox (
    id uuid PRIMARY KEY,
    share_id uuid NOT NULL REFERENCES shares (id) ON DELETE CASCADE,
    channel text NOT NULL CHECK (channel IN ('email', 'sms')),
    address text NOT NULL,
    subject text NOT NULL,
    body text NOT NULL,
    claimed_until timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX futuregram_outbox_order ON futuregram_outbox (created_at);
