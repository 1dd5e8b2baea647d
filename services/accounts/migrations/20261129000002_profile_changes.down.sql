CREATE FUNCTION notify_profile_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('profile_changed', to_jsonb(OLD) ->> TG_ARGV[0]);
    ELSE
        PERFORM pg_notify('profile_changed', to_jsonb(NEW) ->> TG_ARGV[0]);
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION notify_organization_profiles_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('profile_changed', m.user_id::text)
    FROM organization_members m
    WHERE m.organization_id = NEW.id;
    RETURN NULL;
END
$$;

DROP TRIGGER profile_changed ON users;
DROP TRIGGER profile_changed ON organization_members;
DROP TRIGGER profile_changed ON organizations;
DROP FUNCTION record_profile_change();
DROP FUNCTION record_organization_profile_changes();

CREATE TRIGGER profile_changed AFTER INSERT OR UPDATE OR DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION notify_profile_changed('id');
CREATE TRIGGER profile_changed AFTER INSERT OR UPDATE OR DELETE ON organization_members
    FOR EACH ROW EXECUTE FUNCTION notify_profile_changed('user_id');
CREATE TRIGGER profile_changed AFTER UPDATE ON organizations
    FOR EACH ROW EXECUTE FUNCTION notify_organization_profiles_changed();
