//! Home: who is signed in.
import { useMeQuery } from '../../../lib/api/me';

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
        </section>
      )}
    </main>
  );
}
