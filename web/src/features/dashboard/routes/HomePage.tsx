//! Home: who is signed in with the CreditCard Wallet balance, and the quick actions: capture
//! evidence, the rental captures, the guide.
import { Link } from 'react-router';
import { formatMoney } from '../../../components/payments/money';
import { useMeQuery } from '../../../lib/api/me';
import '../dashboard.css';

const QUICK_ACTIONS = [
  { to: '/evidence', label: 'Capture Evidence', hint: 'Photo, video or audio, online or offline' },
  { to: '/vehicle-rental', label: 'Vehicle Rental', hint: 'Record a vehicle at pick-up and return' },
  { to: '/hotel-rental', label: 'Hotel Rental', hint: 'Record a room at check-in and check-out' },
  { to: '/dashboard/guide', label: 'Guide', hint: 'How capture, storage and the integrity check work' },
];

export function HomePage() {
  const { data: me, isLoading } = useMeQuery();
  return (
    <main className="page">
      <h1>Home</h1>
      {isLoading && <p>Loading…</p>}
      {me && (
        <section className="card">
          <p className="home__greeting">
            Welcome, <strong data-testid="username">{me.username}</strong>
          </p>
          <p className="muted">{me.email}</p>
          <Link to="/stored-account" className="home__wallet">
            CreditCard Wallet <strong data-testid="home-wallet-balance">{formatMoney(me.creditCardWalletBalance)}</strong>
          </Link>
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
