-- The customer and the wallet rows are the payment part of a profile: a change to either records
-- the user in profile_changes (no notification: see the common migration that made the table).
CREATE FUNCTION record_payment_profile_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO profile_changes (user_id) VALUES (OLD.user_id);
    ELSE
        INSERT INTO profile_changes (user_id) VALUES (NEW.user_id);
    END IF;
    RETURN NULL;
END
$$;

DROP TRIGGER profile_changed ON customers;
DROP TRIGGER profile_changed ON wallets;
DROP FUNCTION notify_payment_profile_changed();

CREATE TRIGGER profile_changed AFTER INSERT OR UPDATE OR DELETE ON customers
    FOR EACH ROW EXECUTE FUNCTION record_payment_profile_change();
CREATE TRIGGER profile_changed AFTER INSERT OR UPDATE OR DELETE ON wallets
    FOR EACH ROW EXECUTE FUNCTION record_payment_profile_change();
