-- The gateway keeps each user's profile (GET /api/accounts/me/) in Redis; its payment part is
-- the customer and the wallet. A change to either notifies `profile_changed` with the user's id,
-- and the service listening there makes that stored profile stale.
CREATE FUNCTION notify_payment_profile_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('profile_changed', OLD.user_id::text);
    ELSE
        PERFORM pg_notify('profile_changed', NEW.user_id::text);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER profile_changed AFTER INSERT OR UPDATE OR DELETE ON customers
    FOR EACH ROW EXECUTE FUNCTION notify_payment_profile_changed();
CREATE TRIGGER profile_changed AFTER INSERT OR UPDATE OR DELETE ON wallets
    FOR EACH ROW EXECUTE FUNCTION notify_payment_profile_changed();
