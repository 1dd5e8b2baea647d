//! Applies the access table's decision to the current location (spec §2 "Access groups").
import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { decide } from '../lib/routing/accessTable';
import { selectSignedIn } from '../lib/session/loginInfoSlice';
import { logOut } from '../lib/session/logOut';
import { useAppDispatch, useAppSelector } from '../lib/store/hooks';

export function Guard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const signedIn = useAppSelector(selectSignedIn);
  const dispatch = useAppDispatch();
  // Whether the user was signed in on arriving at this location. A user who signs in on a
  // public-only page (log in, sign up) is not sent home by the guard: the page navigates on to
  // the remembered origin or the next step itself, and a redirect here would race that
  // navigation and win. Logging out on a page (sign-up with referred=true) counts as arriving
  // signed out, so signing up there is signing in here too.
  const [arrival, setArrival] = useState({ key: location.key, signedIn });
  if (arrival.key !== location.key || (arrival.signedIn && !signedIn)) setArrival({ key: location.key, signedIn });
  const decision = decide(location.pathname, location.search, signedIn, signedIn && !arrival.signedIn);

  useEffect(() => {
    if (decision.kind === 'render-after-logout') logOut(dispatch);
  }, [decision.kind, dispatch]);

  if (decision.kind === 'redirect') return <Navigate to={decision.to} state={decision.state} replace />;
  return children;
}
