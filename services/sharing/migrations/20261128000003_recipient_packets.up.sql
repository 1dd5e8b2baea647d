-- Whose a custody entry is: the share it belongs to and, where one recipient is meant, their
-- delivery. A recipient's evidence packet shows their own entries and the share's in full, and
-- only the chain links (sequence number and hashes) of entries about other recipients. Entries
-- written before these columns have neither: they are treated as naming a recipient unless their
-- kind names nobody (captured, uploaded, verified, packet_exported).
ALTER TABLE custody_entries ADD COLUMN share_id uuid;
ALTER TABLE custody_entries ADD COLUMN delivery_id uuid;

-- A packet link a recipient asked for: the copies their delivery received. NULL: the owner's.
ALTER TABLE packet_downloads ADD COLUMN delivery_id uuid;
