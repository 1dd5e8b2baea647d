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

DROP TRIGGER profile_changed ON customers;
DROP TRIGGER profile_changed ON wallets;
DROP FUNCTION record_payment_profile_change();

CREATE TRIGGER profile_changed AFTER INSERT OR UPDATE OR DELETE ON customers
    FOR EACH ROW EXECUTE FUNCTION notify_payment_profile_changed();
CREATE TRIGGER profile_changed AFTER INSERT OR UPDATE OR DELETE ON wallets
    FOR EACH ROW EXECUTE FUNCTION notify_payment_profile_changed();
