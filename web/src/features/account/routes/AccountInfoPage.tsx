//! `/account-info`: the profile — names, username, e-mail, phone, address, account type, member
//! since — and how codes reach the user. Names are edited directly; username, e-mail and phone first
//! ask for the current password, whose token is reused for its 10 minutes (contract "Password
//! verification"); e-mail and phone then confirm a code sent to the new value.
import { useState } from 'react';
import { Link } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { fullAddress } from '../../../components/address';
import { BottomSheet } from '../../../components/BottomSheet';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { useMeQuery } from '../../../lib/api/me';
import type { PasswordToken, Profile } from '../../../lib/api/types';
import { formatDate } from '../../../lib/format/format';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { CommunicationMethod } from '../components/CommunicationMethod';
import { EmailChangeForm } from '../components/EmailChangeForm';
import { NamesForm } from '../components/NamesForm';
import { PasswordStep } from '../components/PasswordStep';
import { PhoneChangeForm } from '../components/PhoneChangeForm';
import { UsernameForm } from '../components/UsernameForm';
import { usePasswordToken } from '../model/passwordToken';
import { CHANGE_ADDRESS, CHANGE_PASSWORD, SETTINGS } from '../paths';
import { BackControl } from '../../../components/BackControl';
import '../account.css';

type Editing = 'names' | 'username' | 'email' | 'phone';

const TITLES: Record<Editing, string> = {
  names: 'Change Name',
  username: 'Change Username',
  email: 'Change Email',
  phone: 'Change Phone Number',
};

const ACCOUNT_TYPES: Record<string, string> = { individual: 'Individual', organization: 'Organization' };

function accountType(profile: Profile): string {
  const type = ACCOUNT_TYPES[profile.accountType] ?? profile.accountType;
  const organization = profile.organization;
  return organization ? `${type} · ${organization.name} (${organization.role})` : type;
}

function Row({
  label,
  value,
  testId,
  onEdit,
  editLabel,
}: {
  label: string;
  value: string;
  testId: string;
  onEdit?: () => void;
  editLabel?: string;
}) {
  return (
    <div className="account-row">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value || <span className="muted">Not set</span>}</dd>
      {onEdit && (
        <button type="button" className="link account-row__edit" aria-label={editLabel} onClick={onEdit}>
          Edit
        </button>
      )}
    </div>
  );
}

export function AccountInfoPage() {
  const dispatch = useAppDispatch();
  const me = useMeQuery();
  const tokens = usePasswordToken();
  const [editing, setEditing] = useState<Editing | null>(null);
  // The token this sheet works with: taken from the held one when the sheet opens, or just verified.
  const [sheetToken, setSheetToken] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();

  const open = (what: Editing) => {
    setEditing(what);
    setSheetToken(what === 'names' ? undefined : tokens.current());
    setNotice(undefined);
  };
  const close = () => setEditing(null);
  const done = (message: string) => {
    close();
    dispatch(showSnackbar({ message, type: 'success' }));
  };
  const verified = (token: PasswordToken) => {
    tokens.remember(token);
    setSheetToken(token.passwordToken);
  };
  const tokenRefused = (message: string) => {
    tokens.forget();
    setSheetToken(undefined);
    setNotice(message);
  };

  const profile = me.data;
  if (!profile) {
    return (
      <main className="page account">
        <BackControl to={SETTINGS} label="Settings" />
        <h1>Account Info</h1>
        {me.isError ? (
          <>
            <p>Your details could not be loaded.</p>
            <PrimaryButton onClick={() => void me.refetch()}>Try again</PrimaryButton>
          </>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </main>
    );
  }

  const sensitive = { token: sheetToken ?? '', onTokenRefused: tokenRefused, onDone: done };
  return (
    <main className="page account">
      <BackControl to={SETTINGS} label="Settings" />
      <h1>Account Info</h1>
      <dl className="account-rows">
        <Row label="First name" value={profile.firstName} testId="account-first-name" onEdit={() => open('names')} editLabel="Edit name" />
        <Row label="Last name" value={profile.lastName} testId="account-last-name" />
        <Row
          label="Username"
          value={profile.username}
          testId="account-username"
          onEdit={() => open('username')}
          editLabel="Edit username"
        />
        <Row label="Email" value={profile.email} testId="account-email" onEdit={() => open('email')} editLabel="Edit email" />
        <Row
          label="Phone number"
          value={`${profile.phoneNumber.countryCode} ${profile.phoneNumber.nationalNumber}`.trim()}
          testId="account-phone"
          onEdit={() => open('phone')}
          editLabel="Edit phone number"
        />
        <Row label="Address" value={fullAddress(profile.address)} testId="account-address" />
        <Row label="Account type" value={accountType(profile)} testId="account-type" />
        <Row label="Member since" value={formatDate(profile.createdAt)} testId="account-member-since" />
      </dl>
      <CommunicationMethod value={profile.communicationMethod} />
      <nav aria-label="Account" className="account-links">
        <Link to={CHANGE_ADDRESS} className="account-link">
          Change Address
        </Link>
        <Link to={CHANGE_PASSWORD} className="account-link">
          Change Password
        </Link>
      </nav>
      <BottomSheet open={editing !== null} title={editing ? TITLES[editing] : ''} onClose={close}>
        {editing === 'names' && <NamesForm initial={{ firstName: profile.firstName, lastName: profile.lastName }} onDone={done} />}
        {editing !== null && editing !== 'names' && !sheetToken && <PasswordStep onVerified={verified} notice={notice} />}
        {editing === 'username' && sheetToken && <UsernameForm {...sensitive} />}
        {editing === 'email' && sheetToken && <EmailChangeForm {...sensitive} />}
        {editing === 'phone' && sheetToken && <PhoneChangeForm {...sensitive} initialCountryCode={profile.phoneNumber.countryCode} />}
      </BottomSheet>
    </main>
  );
}
