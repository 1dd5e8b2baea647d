-- Issue 5: recovery, profile changes, history, deletion and organizations.

-- Codes and verifications are for a subject (the e-mail being signed up, or a user and what they
-- change) and go to a destination (an e-mail or a phone) by a channel.
ALTER TABLE confirmation_codes RENAME COLUMN email TO subject;
ALTER TABLE confirmation_codes
    ADD COLUMN channel text NOT NULL DEFAULT 'email' CHECK (channel IN ('email', 'sms')),
    ADD COLUMN destination text NOT NULL DEFAULT '';
UPDATE confirmation_codes SET destination = subject;
DROP INDEX confirmation_codes_lookup;
CREATE INDEX confirmation_codes_lookup ON confirmation_codes (subject, purpose, created_at DESC);

ALTER TABLE email_verifications RENAME TO verifications;
ALTER TABLE verifications RENAME COLUMN email TO subject;

-- A soft delete: the row stays (its username, e-mail and phone stay taken) until the purge.
ALTER TABLE users
    ADD COLUMN deleted_at timestamptz,
    ADD COLUMN delete_reason text,
    ADD COLUMN delete_details text,
    ADD COLUMN recoverable_until timestamptz;
CREATE INDEX users_purge_due ON users (recoverable_until) WHERE deleted_at IS NOT NULL;

-- What happened to an account, for the user's history (spec: action-logs/history).
CREATE TABLE action_logs (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    action text NOT NULL,
    description text NOT NULL,
    ip_address text NOT NULL DEFAULT '',
    user_agent text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX action_logs_user ON action_logs (user_id, created_at DESC, id DESC);

CREATE TABLE organizations (
    id uuid PRIMARY KEY,
    name text NOT NULL,
    owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- A user belongs to at most one organization.
CREATE TABLE organization_members (
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id uuid NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
    joined_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, user_id)
);

CREATE TABLE organization_invites (
    id uuid PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    code text NOT NULL UNIQUE,
    channel text NOT NULL CHECK (channel IN ('email', 'sms')),
    email text,
    phone_country_code text,
    phone_national_number text,
    role text NOT NULL CHECK (role IN ('admin', 'member')),
    invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
    expires_at timestamptz NOT NULL,
    accepted_at timestamptz,
    accepted_by uuid REFERENCES users (id) ON DELETE SET NULL,
    revoked_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX organization_invites_open ON organization_invites (organization_id, created_at DESC)
    WHERE accepted_at IS NULL AND revoked_at IS NULL;
