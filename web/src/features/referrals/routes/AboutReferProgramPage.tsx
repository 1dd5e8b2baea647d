//! `/about-refer-program`: how the referral programme works, in the API's numbers: the rewards,
//! the monthly cap, one reward per friend, none for inviting oneself, and the review of a reward
//! that looks wrong.
import { Link } from 'react-router';
import { BackControl } from '../../../components/BackControl';
import { useReferralInfoQuery } from '../api/referralsApi';
import { LoadError, Loading } from '../components/LoadState';
import { programmeRules, rewardSentence } from '../model/programme';
import '../referrals.css';

export const RULES_NOT_LOADED = 'The programme details could not be loaded.';

export function AboutReferProgramPage() {
  const info = useReferralInfoQuery();
  const data = info.data;
  return (
    <main className="page">
      <BackControl to="/refer-a-friend" label="Refer a Friend" />
      <h1>How Referrals Work</h1>
      {info.isLoading && <Loading what="Loading the programme details..." />}
      {info.isError && !data && <LoadError message={RULES_NOT_LOADED} onRetry={() => void info.refetch()} />}
      {data && (
        <>
          <h2 className="referrals-heading">Three steps</h2>
          <ol className="referrals-rules">
            <li>Invite a friend by SMS or e-mail, or share your link or code.</li>
            <li>Your friend signs up with your link or code.</li>
            <li>{rewardSentence(data)}</li>
          </ol>
          <h2 className="referrals-heading">The rules</h2>
          <ul className="referrals-rules" aria-label="The rules">
            {programmeRules(data).map((rule) => (
              <li key={rule}>{rule}</li>
            ))}
          </ul>
          <Link to="/referral-code" className="link-block">
            See your invitations
          </Link>
        </>
      )}
    </main>
  );
}
