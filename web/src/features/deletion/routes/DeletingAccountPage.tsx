//! `/deleting-of-evidentia-account` (signed in): what deleting the account means before any choice
//! is made: every session ends, the account and its evidence are paused for the grace period and
//! can be recovered by logging in, then they are purged for good.
import { useNavigate } from 'react-router';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { DELETION_PATHS, GRACE_PERIOD_DAYS, SETTINGS } from '../model/choice';
import '../deletion.css';

export function DeletingAccountPage() {
  const navigate = useNavigate();
  return (
    <main className="page">
      <h1>Delete Evidentia Account</h1>
      <p>Before you go, here is what deleting your account means:</p>
      <ul className="deletion__facts">
        <li>You are logged out on every device.</li>
        <li>Your account, folders and evidence are kept but paused for {GRACE_PERIOD_DAYS} days.</li>
        <li>
          Within those {GRACE_PERIOD_DAYS} days you can get everything back: log in with your username and password and choose 'Recover
          Account'.
        </li>
        <li>After {GRACE_PERIOD_DAYS} days the account and everything in it are deleted for good and can no longer be recovered.</li>
      </ul>
      <PrimaryButton variant="red" onClick={() => navigate(DELETION_PATHS.reasons)}>
        Continue
      </PrimaryButton>
      <PrimaryButton variant="secondary" onClick={() => navigate(SETTINGS)}>
        Cancel
      </PrimaryButton>
    </main>
  );
}
