DROP TABLE futuregram_outbox;
DROP TABLE futuregram_views;
DROP TABLE futuregram_executors;
DROP TABLE futuregrams;
DELETE FROM shares WHERE state = 'scheduled';
ALTER TABLE shares DROP CONSTRAINT shares_state_check;
ALTER TABLE shares ADD CONSTRAINT shares_state_check
    CHECK (state IN ('awaiting_payment', 'active', 'revoked'));
