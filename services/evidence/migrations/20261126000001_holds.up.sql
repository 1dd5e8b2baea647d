-- Items another service keeps for a later use (a futuregram releases copies of them): while a
-- hold names an item, the item cannot be deleted or retaken, nor its folder deleted.
CREATE TABLE item_holds (
    hold_id uuid NOT NULL,
    owner_id uuid NOT NULL,
    item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (hold_id, item_id)
);
CREATE INDEX item_holds_item ON item_holds (item_id);
