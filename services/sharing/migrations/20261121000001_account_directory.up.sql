-- Sharing's own copy of how each account is named (from AccountCreated), for the watermark and
-- the share e-mails, so a share never waits on the accounts service.
CREATE TABLE account_directory (
    user_id uuid PRIMARY KEY,
    username text NOT NULL,
    email text NOT NULL,
    first_name text NOT NULL DEFAULT '',
    last_name text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);
