-- The gateway keeps each user's profile (GET /api/accounts/me/) in Redis. A change to a row it
-- is made of notifies `profile_changed` with the user's id, and the service listening there
-- makes that stored profile stale. The trigger's argument names the row's user id column.
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

-- An organization's name is in each member's profile.
CREATE FUNCTION notify_organization_profiles_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('profile_changed', m.user_id::text)
    FROM organization_members m
    WHERE m.organization_id = NEW.id;
    RETURN NULL;
END
$$;

CREATE TRIGGER profile_changed AFTER INSERT OR UPDATE OR DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION notify_profile_changed('id');
CREATE TRIGGER profile_changed AFTER INSERT OR UPDATE OR DELETE ON organization_members
    FOR EACH ROW EXECUTE FUNCTION notify_profile_changed('user_id');
-- A deleted organization takes its members' rows with it, and they notify.
CREATE TRIGGER profile_changed AFTER UPDATE ON organizations
    FOR EACH ROW EXECUTE FUNCTION notify_organization_profiles_changed();
