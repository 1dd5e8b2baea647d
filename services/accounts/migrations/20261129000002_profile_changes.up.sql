-- A change to a row a profile is made of records the user in profile_changes (no notification:
-- see the common migration that made the table). The trigger's argument names the row's user id
-- column.
CREATE FUNCTION record_profile_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO profile_changes (user_id) VALUES ((to_jsonb(OLD) ->> TG_ARGV[0])::uuid);
    ELSE
        INSERT INTO profile_changes (user_id) VALUES ((to_jsonb(NEW) ->> TG_ARGV[0])::uuid);
    END IF;
    RETURN NULL;
END
$$;

-- An organization's name is in each member's profile.
CREATE FUNCTION record_organization_profile_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO profile_changes (user_id)
    SELECT m.user_id FROM organization_members m WHERE m.organization_id = NEW.id;
    RETURN NULL;
END
$$;

DROP TRIGGER profile_changed ON users;
DROP TRIGGER profile_changed ON organization_members;
DROP TRIGGER profile_changed ON organizations;
DROP FUNCTION notify_profile_changed();
DROP FUNCTION notify_organization_profiles_changed();

CREATE TRIGGER profile_changed AFTER INSERT OR UPDATE OR DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION record_profile_change('id');
CREATE TRIGGER profile_changed AFTER INSERT OR UPDATE OR DELETE ON organization_members
    FOR EACH ROW EXECUTE FUNCTION record_profile_change('user_id');
-- A deleted organization takes its members' rows with it, and they record the change.
CREATE TRIGGER profile_changed AFTER UPDATE ON organizations
    FOR EACH ROW EXECUTE FUNCTION record_organization_profile_changes();
