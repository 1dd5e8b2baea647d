DROP TRIGGER profile_changed ON wallets;
DROP TRIGGER profile_changed ON customers;
DROP FUNCTION notify_payment_profile_changed();
