//! What the sign-up screen shows of a referral link: who invited the visitor once the code checks
//! out, or that the link is not valid (the account is still made, without the referral). The hook
//! tells the sign-up screen whether to send the code with the new account.
import { InfoBanner } from '../../../components/InfoBanner';
import { useCheckReferralCodeQuery } from '../api/referralsApi';

export type ReferralCheckState =
  | { kind: 'none' }
  | { kind: 'checking' }
  | { kind: 'valid'; code: string; firstName: string }
  | { kind: 'invalid' }
  | { kind: 'unchecked' };

/** The check of `code` (null: no referral link, nothing is asked). */
export function useReferralCheck(code: string | null): ReferralCheckState {
  const check = useCheckReferralCodeQuery(code ?? '', { skip: code === null });
  if (code === null) return { kind: 'none' };
  if (check.data) return check.data.valid ? { kind: 'valid', code, firstName: check.data.firstName } : { kind: 'invalid' };
  if (check.isError) return { kind: 'unchecked' };
  return { kind: 'checking' };
}

export const INVALID_REFERRAL = 'This invitation link is not valid. You can still sign up.';

export function InvitedBy({ check }: { check: ReferralCheckState }) {
  switch (check.kind) {
    case 'valid':
      // The server knows a first name only when the inviter gave one on signing up.
      return <InfoBanner title={`Invited by ${check.firstName.trim() || 'a friend'}`} />;
    case 'invalid':
      return <InfoBanner type="attention" title={INVALID_REFERRAL} />;
    default:
      return null;
  }
}
