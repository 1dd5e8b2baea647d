//! Settings: the payments entries (payment methods, the CreditCard Wallet — its screen shows the
//! intro while there is no wallet —, pricing models, the cost estimator), the information pages
//! (legal, FAQ, tech support, contact us) and log out (the rest of the settings come with the
//! accounts issue).
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { logOut } from '../../../app/store';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { api } from '../../../lib/api/api';
import { START } from '../../../lib/routing/accessTable';
import '../dashboard.css';

/** The payments entries (spec §2 routes). */
export const PAYMENT_LINKS = [
  { to: '/payment-methods', label: 'Payment Methods' },
  { to: '/stored-account', label: 'CreditCard Wallet' },
  { to: '/pricing-models', label: 'Pricing Models' },
  { to: '/cost-estimator-tool', label: 'Cost Estimator' },
];

/** The information pages (issue 5). */
export const INFO_LINKS = [
  { to: '/legal', label: 'Legal' },
  { to: '/faq', label: 'FAQ' },
  { to: '/tech-support', label: 'Tech Support' },
  { to: '/contact-us', label: 'Contact Us' },
];

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
      <nav aria-label="Payments">
        <ul className="settings-links">
          {PAYMENT_LINKS.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="settings-link">
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label="Help and legal">
        <ul className="settings-links">
          {INFO_LINKS.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="settings-link">
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
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
