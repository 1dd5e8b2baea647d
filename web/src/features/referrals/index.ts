//! Referrals, for the rest of the app: what the sign-up screen needs of a referral link (the code
//! it carries, its check, and who invited the visitor). The screens are mounted by the app.
export { INVALID_REFERRAL, InvitedBy, useReferralCheck, type ReferralCheckState } from './components/InvitedBy';
export { referralCodeOf } from './model/referralLink';
