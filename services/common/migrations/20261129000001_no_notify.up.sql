-- No transaction notifies any more. A transaction that notifies takes one lock of the whole
-- PostgreSQL cluster at its commit and holds it until its commit record is on disk, so such
-- commits are flushed one at a time: every purchase notified twice (its event, its wallet), and
-- the cluster committed them a quarter as fast as the same writes without.

-- The relay is woken by the process that enqueued (outbox::enqueue), and reads again by itself.
DROP TRIGGER outbox_inserted ON outbox;
DROP FUNCTION outbox_notify();

-- Users whose stored profile (GET /api/accounts/me/) a committed change made stale: written by
-- the triggers of the tables a profile is made of (accounts' and payments'; the table is in
-- every service's database, empty in the others), taken out by the service's drainer
-- (profile_cache::keep_fresh), which replaces their versions in Redis. A row is deleted in the
-- transaction that passed it on, so a change is lost neither while Redis is away nor while no
-- service drains.
CREATE TABLE profile_changes (
    user_id uuid NOT NULL
);
