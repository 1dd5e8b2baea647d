-- Idempotent creates (offline sync, resume): the device names what it creates with its own id.
-- A folder's client id is unique per owner; an item's per folder (the folder has one owner).
ALTER TABLE folders ADD COLUMN client_id uuid;
ALTER TABLE folders ADD CONSTRAINT folders_owner_client_id UNIQUE (owner_id, client_id);
ALTER TABLE items ADD COLUMN client_id uuid;
ALTER TABLE items ADD CONSTRAINT items_folder_client_id UNIQUE (folder_id, client_id);

-- Rental folders: a vehicle or hotel rental at pick-up or return; a return points at its pick-up.
CREATE TABLE rentals (
    folder_id uuid PRIMARY KEY REFERENCES folders (id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('vehicle', 'hotel')),
    vehicle_type text CHECK (vehicle_type IN ('car', 'suv', 'watercraft', 'trailer', 'truck')),
    moment text NOT NULL CHECK (moment IN ('pickup', 'return')),
    pickup_folder_id uuid REFERENCES folders (id) ON DELETE SET NULL,
    CONSTRAINT rentals_vehicle_type CHECK ((kind = 'vehicle') = (vehicle_type IS NOT NULL)),
    CONSTRAINT rentals_pickup_of_return CHECK (moment = 'return' OR pickup_folder_id IS NULL)
);
CREATE INDEX rentals_pickup ON rentals (pickup_folder_id) WHERE pickup_folder_id IS NOT NULL;

-- The rental section a capture belongs to (body, interior, ... ; room, bathroom, ...).
ALTER TABLE items ADD COLUMN section text;
