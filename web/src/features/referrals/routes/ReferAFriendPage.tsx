//! `/refer-a-friend`: the user's referral code and link, the reward in the API's numbers, how many
//! friends were invited, signed up and rewarded and what that earned, and the ways to invite: SMS,
//! e-mail, the system share sheet (or Copy link where the browser has none), the invitations list
//! and how the programme works.
import { useState } from 'react';
import { Link } from 'react-router';
import { BackControl } from '../../../components/BackControl';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { formatMoney } from '../../../lib/format/money';
import { useAppDispatch } from '../../../lib/store/hooks';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useReferralInfoQuery } from '../api/referralsApi';
import { LoadError, Loading } from '../components/LoadState';
import { rewardSentence } from '../model/programme';
import { canShare, shareLink, type ShareTarget } from '../model/share';
import '../referrals.css';

export const LINK_COPIED = 'Link copied. Paste it in a message to your friend.';
export const LINK_NOT_COPIED = 'The link could not be copied. Press and hold it to copy it.';
export const INFO_NOT_LOADED = 'Your referral code could not be loaded.';

export function ReferAFriendPage({ shareTarget = navigator }: { shareTarget?: ShareTarget }) {
  const dispatch = useAppDispatch();
  const info = useReferralInfoQuery();
  const [sharing, setSharing] = useState(false);
  const data = info.data;

  const share = async () => {
    if (!data) return;
    setSharing(true);
    const outcome = await shareLink(shareTarget, `Join me on Evidentia with my code ${data.code}. ${rewardSentence(data)}`, data.link);
    setSharing(false);
    if (outcome === 'copied') dispatch(showSnackbar({ message: LINK_COPIED, type: 'success' }));
    if (outcome === 'failed') dispatch(showSnackbar({ message: LINK_NOT_COPIED, type: 'error' }));
  };

  return (
    <main className="page">
      <BackControl to="/dashboard/settings" label="Settings" />
      <h1>Refer a Friend</h1>
      {info.isLoading && <Loading what="Loading your referral code..." />}
      {info.isError && !data && <LoadError message={INFO_NOT_LOADED} onRetry={() => void info.refetch()} />}
      {data && (
        <>
          <p className="referrals-lead">{rewardSentence(data)}</p>
          <section className="card referrals-code" aria-label="Your referral code">
            <p className="referrals-code__label">Your code</p>
            <p className="referrals-code__value" data-testid="referral-code">
              {data.code}
            </p>
            <p className="referrals-code__label">Your link</p>
            <p className="referrals-code__link" data-testid="referral-link">
              {data.link}
            </p>
          </section>
          <dl className="referrals-counts" aria-label="Your referrals">
            <Count label="Invited" value={String(data.invited)} />
            <Count label="Signed up" value={String(data.signedUp)} />
            <Count label="Rewarded" value={String(data.rewarded)} />
            <Count label="Total earned" value={formatMoney(data.earned)} />
          </dl>
          <div className="referrals-actions">
            <Link to="/refer/sms" className="btn btn--primary">
              Invite by SMS
            </Link>
            <Link to="/refer/email" className="btn btn--primary">
              Invite by E-mail
            </Link>
            <PrimaryButton variant="secondary" onClick={() => void share()} loading={sharing}>
              {canShare(shareTarget) ? 'Share' : 'Copy link'}
            </PrimaryButton>
          </div>
          <nav className="referrals-links" aria-label="Referrals">
            <Link to="/referral-code" className="link-block">
              My Invitations
            </Link>
            <Link to="/about-refer-program" className="link-block">
              How it works
            </Link>
          </nav>
        </>
      )}
    </main>
  );
}

function Count({ label, value }: { label: string; value: string }) {
  return (
    <div className="referrals-counts__item">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
