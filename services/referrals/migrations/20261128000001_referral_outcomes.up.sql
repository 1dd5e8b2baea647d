-- Payments decides each reward and tells its outcome: besides rewarded, held, reversed and lapsed,
-- a friend can be paid alone because the inviter reached the monthly cap (`capped`), or the reward
-- refused as a self-referral by card (`refused`).
ALTER TABLE referrals DROP CONSTRAINT referrals_state_check;
ALTER TABLE referrals ADD CONSTRAINT referrals_state_check
    CHECK (state IN ('signed_up', 'rewarded', 'capped', 'held', 'refused', 'reversed', 'lapsed'));
