DROP TRIGGER profile_changed ON organizations;
DROP TRIGGER profile_changed ON organization_members;
DROP TRIGGER profile_changed ON users;
DROP FUNCTION notify_organization_profiles_changed();
DROP FUNCTION notify_profile_changed();
