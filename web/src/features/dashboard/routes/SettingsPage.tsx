//! Settings: the account screens (account info, address, password, date and time, events history),
//! the organization's screens for an organization account, the payments entries (payment methods,
//! the CreditCard Wallet — its screen shows the intro while there is no wallet —, pricing models,
//! the cost estimator), refer a friend, the information pages (legal, FAQ, tech support, contact
//! us), deleting the account, and log out.
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../lib/store/hooks';
import { logOut } from '../../../lib/session/logOut';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { api } from '../../../lib/api/api';
import { useMeQuery } from '../../../lib/api/me';
import { START } from '../../../lib/routing/accessTable';
import '../dashboard.css';

/** The account screens (spec §2 "Account" routes). */
export const ACCOUNT_LINKS = [
  { to: '/account-info', label: 'Account Info' },
  { to: '/change-address', label: 'Change Address' },
  { to: '/change-password', label: 'Change Password' },
  { to: '/date-and-time', label: 'Date and Time' },
  { to: '/events-history', label: 'Events History' },
];

/** An organization account's screens (spec §2 "Organization" and the dashboard's captures). */
export const ORGANIZATION_LINKS = [
  { to: '/organization-participants', label: 'Participants' },
  { to: '/dashboard/organization-captures', label: 'Organization Captures' },
];

/** Deleting the account (spec §2 "Account deletion"; the product is Evidentia). */
export const SECURITY_LINKS = [{ to: '/deleting-of-evidentia-account', label: 'Delete Account' }];

/** The payments entries (spec §2 routes). */
export const PAYMENT_LINKS = [
  { to: '/payment-methods', label: 'Payment Methods' },
  { to: '/stored-account', label: 'CreditCard Wallet' },
  { to: '/pricing-models', label: 'Pricing Models' },
  { to: '/cost-estimator-tool', label: 'Cost Estimator' },
];

/** Inviting friends for a wallet reward (spec §2 "Referral" routes). */
export const REFERRAL_LINKS = [{ to: '/refer-a-friend', label: 'Refer a Friend' }];

/** The information pages. */
export const INFO_LINKS = [
  { to: '/legal', label: 'Legal' },
  { to: '/faq', label: 'FAQ' },
  { to: '/tech-support', label: 'Tech Support' },
  { to: '/contact-us', label: 'Contact Us' },
];

function LinkList({ label, links }: { label: string; links: { to: string; label: string }[] }) {
  return (
    <nav aria-label={label}>
      <h2 className="settings-heading">{label}</h2>
      <ul className="settings-links">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="settings-link">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

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
  // Only an organization account has the organization's entries.
  const organization = useMeQuery().data?.organization;

  const logout = async () => {
    // The session ends on the server when it can; the device forgets it either way.
    if (refresh) await endSession({ refresh });
    logOut(dispatch);
    navigate(START, { replace: true });
  };

  return (
    <main className="page">
      <h1>Settings</h1>
      <LinkList label="Account" links={ACCOUNT_LINKS} />
      {organization && <LinkList label="Organization" links={ORGANIZATION_LINKS} />}
      <LinkList label="Payments" links={PAYMENT_LINKS} />
      <LinkList label="Invite friends" links={REFERRAL_LINKS} />
      <LinkList label="Help and legal" links={INFO_LINKS} />
      <LinkList label="Security" links={SECURITY_LINKS} />
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
