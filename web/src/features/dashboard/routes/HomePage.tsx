//! Home: who is signed in with the CreditCard Wallet balance once a wallet exists (before that, the
//! way to create one), and the quick actions: capture evidence, the rental captures, the
//! conversations about shares, the guide.
import { Link } from 'react-router';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { formatMoney } from '../../../lib/format/money';
import { useMeQuery } from '../../../lib/api/me';
import { useStoredAccountQuery } from '../../../lib/api/payments';
import '../dashboard.css';

const QUICK_ACTIONS = [
  { to: '/evidence', label: 'Capture Evidence', hint: 'Photo, video or audio, online or offline' },
  { to: '/vehicle-rental', label: 'Vehicle Rental', hint: 'Record a vehicle at pick-up and return' },
  { to: '/hotel-rental', label: 'Hotel Rental', hint: 'Record a room at check-in and check-out' },
  { to: '/chats', label: 'Messages', hint: 'Conversations with the people you shared with' },
  { to: '/dashboard/guide', label: 'Guide', hint: 'How capture, storage and the integrity check work' },
];

export function HomePage() {
  const { data: me, isLoading, isError, refetch } = useMeQuery();
  // The balance can hold the first card's authorisation credit before any wallet exists: it is
  // shown only for a wallet, as the wallet screen does.
  const { data: account } = useStoredAccountQuery();
  return (
    <main className="page">
      <h1>Home</h1>
      {isLoading && <p>Loading…</p>}
      {!me && isError && (
        // The snackbar's message goes after a few seconds: the card's place keeps saying why.
        <section className="card">
          <p className="muted">Your account details could not be loaded.</p>
          <PrimaryButton variant="secondary" onClick={() => void refetch()}>
            Try Again
          </PrimaryButton>
        </section>
      )}
      {me && (
        <section className="card">
          <p className="home__greeting">
            Welcome, <strong data-testid="username">{me.username}</strong>
          </p>
          <p className="muted">{me.email}</p>
          {account?.active ? (
            <Link to="/stored-account" className="home__wallet">
              CreditCard Wallet <strong data-testid="home-wallet-balance">{formatMoney(account.balance)}</strong>
            </Link>
          ) : (
            account && (
              <Link to="/stored-account" className="home__wallet">
                Create CreditCard Wallet
              </Link>
            )
          )}
        </section>
      )}
      <nav aria-label="Quick actions">
        <ul className="home__actions">
          {QUICK_ACTIONS.map((action) => (
            <li key={action.to}>
              <Link to={action.to} className="home__action" aria-label={action.label} aria-describedby={`home-action-${action.label.replace(/\W+/g, '-')}`}>
                <span className="home__action-label">{action.label}</span>
                <span id={`home-action-${action.label.replace(/\W+/g, '-')}`} className="home__action-hint muted">
                  {action.hint}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </main>
  );
}
