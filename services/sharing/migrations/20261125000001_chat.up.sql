-- One conversation per share, between its owner and its recipients. Messages are numbered per
-- thread by `last_seq`, taken under the thread's row lock in the inserting transaction: numbers
-- are handed out in commit order, so a client that asks for what came after the last number it
-- has never skips a message that commits late.
CREATE TABLE chat_threads (
    share_id uuid PRIMARY KEY REFERENCES shares (id) ON DELETE CASCADE,
    last_seq bigint NOT NULL DEFAULT 0,
    last_message_at timestamptz
);

CREATE TABLE chat_messages (
    share_id uuid NOT NULL REFERENCES chat_threads (share_id) ON DELETE CASCADE,
    seq bigint NOT NULL,
    id uuid NOT NULL UNIQUE,
    -- 'owner', or the id of the recipient's delivery.
    author text NOT NULL,
    -- How the author is shown, as it was when the message was written: the owner's name, or a
    -- recipient's masked address.
    author_name text NOT NULL,
    -- The sender's own id for the message: a retried send finds the message it made.
    client_message_id text NOT NULL,
    content text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (share_id, seq),
    UNIQUE (share_id, author, client_message_id)
);

-- Each participant's place in a thread: what they have read, when they last looked, whether
-- they archived it (and up to which message), and when they were last told of unread messages.
CREATE TABLE chat_participants (
    share_id uuid NOT NULL REFERENCES chat_threads (share_id) ON DELETE CASCADE,
    participant text NOT NULL,
    last_read_seq bigint NOT NULL DEFAULT 0,
    last_seen_at timestamptz,
    archived_seq bigint,
    notified_at timestamptz,
    PRIMARY KEY (share_id, participant)
);
CREATE INDEX chat_threads_recent ON chat_threads (last_message_at) WHERE last_message_at IS NOT NULL;
