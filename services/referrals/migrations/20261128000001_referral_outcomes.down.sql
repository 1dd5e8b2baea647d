UPDATE referrals SET state = 'signed_up' WHERE state IN ('capped', 'refused');
ALTER TABLE referrals DROP CONSTRAINT referrals_state_check;
ALTER TABLE referrals ADD CONSTRAINT referrals_state_check
    CHECK (state IN ('signed_up', 'rewarded', 'held', 'reversed', 'lapsed'));
