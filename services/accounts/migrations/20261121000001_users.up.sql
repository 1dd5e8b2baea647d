CREATE TABLE users (
    id uuid PRIMARY KEY,
    username text NOT NULL,
    email text NOT NULL,
    password_hash text NOT NULL,
    first_name text NOT NULL DEFAULT '',
    last_name text NOT NULL DEFAULT '',
    phone_country_code text NOT NULL,
    phone_national_number text NOT NULL,
    account_type text NOT NULL DEFAULT 'individual' CHECK (account_type IN ('individual', 'organization')),
    communication_method text NOT NULL DEFAULT 'email' CHECK (communication_method IN ('email', 'sms')),
    country text NOT NULL DEFAULT '',
    apartment_number text NOT NULL DEFAULT '',
    province text NOT NULL DEFAULT '',
    street text NOT NULL DEFAULT '',
    house text NOT NULL DEFAULT '',
    city text NOT NULL DEFAULT '',
    zip_code text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX users_username_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE UNIQUE INDEX users_phone_key ON users (phone_country_code, phone_national_number);

-- Six-digit codes sent by e-mail; the code itself is kept only as a hash.
CREATE TABLE confirmation_codes (
    id uuid PRIMARY KEY,
    email text NOT NULL,
    purpose text NOT NULL,
    code_hash text NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    expires_at timestamptz NOT NULL,
    consumed_at timestamptz,
    superseded_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX confirmation_codes_lookup ON confirmation_codes (lower(email), purpose, created_at DESC);

-- Proof that an address was verified with a code, spent by the call it unlocks.
CREATE TABLE email_verifications (
    token_hash text PRIMARY KEY,
    email text NOT NULL,
    purpose text NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Rotating refresh tokens: each use replaces the token; a reused token revokes its family.
CREATE TABLE refresh_tokens (
    id uuid PRIMARY KEY,
    family_id uuid NOT NULL,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash text NOT NULL UNIQUE,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    revoked_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
