//! Applies the access table's decision to the current location (spec §2 "Access groups").
import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { decide } from '../lib/routing/accessTable';
import { selectSignedIn } from '../lib/session/loginInfoSlice';
import { useAppDispatch, useAppSelector } from './hooks';
import { logOut } from './store';

export function Guard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const signedIn = useAppSelector(selectSignedIn);
  const dispatch = useAppDispatch();
  const decision = decide(location.pathname, location.search, signedIn);

  useEffect(() => {
    if (decision.kind === 'render-after-logout') logOut(dispatch);
  }, [decision.kind, dispatch]);

  if (decision.kind === 'redirect') return <Navigate to={decision.to} state={decision.state} replace />;
  return children;
}
