//! What an account outside any organization sees on the organization screens: what they are
//! for, and the way to sign up as an organization. Sign-up is for visitors only (spec §2
//! public-only), so the way there logs this account out first, after asking.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../lib/store/hooks';
import { logOut } from '../../../lib/session/logOut';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { useEndSessionForOrganizationSignUpMutation } from '../api/organizationApi';
import { NOT_AN_ORGANIZATION } from '../model/messages';

export const ORGANIZATION_SIGN_UP = '/sign-up-organization';

export function NotAnOrganization() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const refresh = useAppSelector((state) => state.loginInfo.refreshToken);
  const [endSession, ending] = useEndSessionForOrganizationSignUpMutation();
  const [confirming, setConfirming] = useState(false);

  const leave = async () => {
    // The session ends on the server when it can; the device forgets it either way.
    if (refresh) await endSession({ refresh });
    logOut(dispatch);
    // The render the log-out causes happens on this signed-in-only screen, where the guard sends
    // the now anonymous visitor to the start screen. The sign-up opens after that, as the last
    // navigation (a task later: that render, its redirect included, runs in microtasks).
    setTimeout(() => void navigate(ORGANIZATION_SIGN_UP, { replace: true }), 0);
  };

  return (
    <section className="card org-empty" aria-label="Organization accounts">
      <h2 className="org-empty__title">{NOT_AN_ORGANIZATION}</h2>
      <p className="muted">
        An organization account lets a company or a team capture, store and share evidence together, with the participants it invites as
        admins or members.
      </p>
      <PrimaryButton variant="secondary" onClick={() => setConfirming(true)}>
        Sign Up as an Organization
      </PrimaryButton>
      <ConfirmDialog
        isOpen={confirming}
        title="Log Out to Sign Up?"
        subTitle="An organization is an account of its own. You will be logged out of this account first."
        buttons={[
          { text: 'Log Out and Continue', isHighlighted: true, disabled: ending.isLoading, onClick: () => void leave() },
          { text: 'Cancel', onClick: () => setConfirming(false) },
        ]}
      />
    </section>
  );
}
