-- Transactional outbox: rows written in the same transaction as the domain change, published by
-- the relay and deleted only once the broker confirmed them.
CREATE TABLE outbox (
    id uuid PRIMARY KEY,
    routing_key text NOT NULL,
    type_name text NOT NULL,
    payload bytea NOT NULL,
    trace_context jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE OR REPLACE FUNCTION outbox_notify() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('outbox', '');
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER outbox_inserted AFTER INSERT ON outbox
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify();

-- Idempotent consumers: one row per (consumer, event) processed, written in the handler's
-- transaction.
CREATE TABLE processed_events (
    consumer text NOT NULL,
    event_id uuid NOT NULL,
    processed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, event_id)
);
