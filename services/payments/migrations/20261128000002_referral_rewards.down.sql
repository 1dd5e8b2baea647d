DELETE FROM wallet_entries WHERE kind IN ('referral', 'referral_reversal');
ALTER TABLE wallet_entries DROP CONSTRAINT wallet_entries_kind_check;
ALTER TABLE wallet_entries ADD CONSTRAINT wallet_entries_kind_check CHECK (kind IN
    ('top_up', 'auto_top_up', 'promo', 'purchase', 'refund', 'authorisation'));
DROP TABLE referral_rewards;
DROP INDEX payment_methods_fingerprint;
