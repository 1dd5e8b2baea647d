DROP TABLE processed_events;
DROP TRIGGER outbox_inserted ON outbox;
DROP FUNCTION outbox_notify();
DROP TABLE outbox;
