//! The start screen.
import { Link, useLocation } from 'react-router';

export function StartPage() {
  // A visitor sent here from a signed-in-only page goes back there after logging in.
  const { state } = useLocation();
  return (
    <main className="page page--start">
      <img className="start__logo" src="/icons/icon-192.png" alt="" width={96} height={96} />
      <h1>Evidentia</h1>
      <p className="start__tagline">Capture, store and share evidence you can trust.</p>
      <div className="start__actions">
        <Link className="btn btn--primary" to="/sign-up">
          Sign Up
        </Link>
        <Link className="btn btn--secondary" to="/log-in" state={state}>
          Log In
        </Link>
      </div>
    </main>
  );
}
