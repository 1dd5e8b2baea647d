-- Organization capture. A capture template is an ordered list of steps (what to capture, how
-- many files of which media); an organization folder is made from one and keeps its own copy of
-- the steps, so editing or archiving the template later changes no folder already made. The
-- organization itself (participants, roles) lives in accounts; rows here carry its id.
CREATE TABLE capture_templates (
    id uuid PRIMARY KEY,
    organization_id uuid NOT NULL,
    name text NOT NULL,
    description text NOT NULL DEFAULT '',
    archived_at timestamptz,
    created_by uuid NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX capture_templates_organization ON capture_templates (organization_id, created_at DESC);

CREATE TABLE template_steps (
    id uuid PRIMARY KEY,
    template_id uuid NOT NULL REFERENCES capture_templates (id) ON DELETE CASCADE,
    position integer NOT NULL,
    name text NOT NULL,
    instructions text NOT NULL DEFAULT '',
    media_types text[] NOT NULL CHECK (cardinality(media_types) > 0
        AND media_types <@ ARRAY['image', 'video', 'audio']),
    min_files integer NOT NULL CHECK (min_files >= 0),
    max_files integer NOT NULL CHECK (max_files >= 1 AND max_files >= min_files),
    UNIQUE (template_id, position) DEFERRABLE INITIALLY DEFERRED
);

-- An organization folder's owner is the organization's owner (who pays its extensions and whose
-- storage it uses); its participants reach it through organization_id.
ALTER TABLE folders
    ADD COLUMN organization_id uuid,
    ADD COLUMN template_id uuid REFERENCES capture_templates (id);
CREATE INDEX folders_organization ON folders (organization_id, created_at DESC)
    WHERE organization_id IS NOT NULL;

CREATE TABLE folder_steps (
    id uuid PRIMARY KEY,
    folder_id uuid NOT NULL REFERENCES folders (id) ON DELETE CASCADE,
    position integer NOT NULL,
    name text NOT NULL,
    instructions text NOT NULL DEFAULT '',
    media_types text[] NOT NULL,
    min_files integer NOT NULL,
    max_files integer NOT NULL,
    UNIQUE (folder_id, position)
);

-- A file in an organization folder belongs to one step. A contribution (from an anonymous
-- contributor who proved an e-mail address through the sharing service) waits for a participant
-- to accept or decline it; a declined one is deleted after a configured period.
ALTER TABLE items
    ADD COLUMN step_id uuid REFERENCES folder_steps (id) ON DELETE CASCADE,
    ADD COLUMN contributor_id uuid,
    ADD COLUMN contributor_email text,
    ADD COLUMN contribution_link_id uuid,
    ADD COLUMN review_state text CHECK (review_state IN ('pending', 'accepted', 'declined')),
    ADD COLUMN reviewed_by uuid,
    ADD COLUMN reviewed_at timestamptz;
CREATE INDEX items_step ON items (step_id) WHERE step_id IS NOT NULL;
CREATE INDEX items_contributor ON items (contributor_id) WHERE contributor_id IS NOT NULL;
CREATE INDEX items_declined ON items (reviewed_at) WHERE review_state = 'declined';
