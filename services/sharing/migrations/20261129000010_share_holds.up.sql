-- A share's items are held in evidence from before its payment until its copies are made, so
-- its folder cannot be deleted in between: its copies could not be made, and it was paid for.
-- True from the hold until the hold is let go (futuregrams keep their own flag); shares made
-- before this held nothing.
ALTER TABLE shares ADD COLUMN items_held boolean NOT NULL DEFAULT false;
CREATE INDEX shares_items_held ON shares (created_at) WHERE items_held;
