//! Settings: log out (the rest of the settings come with the accounts issue).
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { logOut } from '../../../app/store';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { api } from '../../../lib/api/api';
import { START } from '../../../lib/routing/accessTable';

const logoutApi = api.injectEndpoints({
  endpoints: (build) => ({
    endSession: build.mutation<void, { refresh: string }>({
      query: (body) => ({ url: 'accounts/logout/', method: 'POST', body }),
    }),
  }),
});

export function SettingsPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const refresh = useAppSelector((state) => state.loginInfo.refreshToken);
  const [endSession, ending] = logoutApi.useEndSessionMutation();
  const [confirming, setConfirming] = useState(false);

  const logout = async () => {
    // The session ends on the server when it can; the device forgets it either way.
    if (refresh) await endSession({ refresh });
    logOut(dispatch);
    navigate(START, { replace: true });
  };

  return (
    <main className="page">
      <h1>Settings</h1>
      <PrimaryButton variant="red" onClick={() => setConfirming(true)} loading={ending.isLoading}>
        Log out
      </PrimaryButton>
      <ConfirmDialog
        isOpen={confirming}
        title="Log out?"
        subTitle="You will need your username and password to log in again."
        buttons={[
          { text: 'Log out', onClick: () => void logout(), isHighlighted: true },
          { text: 'Cancel', onClick: () => setConfirming(false) },
        ]}
      />
    </main>
  );
}
