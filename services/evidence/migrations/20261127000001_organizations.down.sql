ALTER TABLE items
    DROP COLUMN step_id,
    DROP COLUMN contributor_id,
    DROP COLUMN contributor_email,
    DROP COLUMN contribution_link_id,
    DROP COLUMN review_state,
    DROP COLUMN reviewed_by,
    DROP COLUMN reviewed_at;
DROP TABLE folder_steps;
ALTER TABLE folders DROP COLUMN organization_id, DROP COLUMN template_id;
DROP TABLE template_steps;
DROP TABLE capture_templates;
