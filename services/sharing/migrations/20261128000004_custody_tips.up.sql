-- Where each item's custody log ends and how far it is signed, so the head signer finds the logs
-- that grew without reading every entry. Kept by the statements that append an entry and sign a
-- head; the entries and heads stay the record.
CREATE TABLE custody_tips (
    item_id uuid PRIMARY KEY,
    owner_id uuid NOT NULL,
    seq bigint NOT NULL,
    hash text NOT NULL,
    signed_seq bigint
);
CREATE INDEX custody_tips_unsigned ON custody_tips (item_id)
    WHERE signed_seq IS NULL OR signed_seq < seq;
CREATE INDEX custody_tips_owner ON custody_tips (owner_id);
INSERT INTO custody_tips (item_id, owner_id, seq, hash, signed_seq)
SELECT DISTINCT ON (e.item_id) e.item_id, e.owner_id, e.seq, e.hash,
       (SELECT max(h.seq) FROM custody_heads h WHERE h.item_id = e.item_id)
FROM custody_entries e
ORDER BY e.item_id, e.seq DESC;
