//! The idle action (spec §4 "Session"): mounted once in the app shell; while the user is signed
//! in, being idle (`idleTimer.ts`) refreshes the session through the base query's one refresh
//! (`refreshSession`: behind the same mutex as a 401's refresh; a refused refresh logs out), so the
//! stored session is a fresh one when the user comes back. An offline device skips it: the refresh
//! could only fail, and would log the user out.
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../store/hooks';
import { api } from '../api/api';
import { refreshSession } from '../api/baseQuery';
import { idleTimeoutMs, watchIdle } from './idleTimer';
import { selectSignedIn } from './loginInfoSlice';

const idleApi = api.injectEndpoints({
  endpoints: (build) => ({
    refreshIdleSession: build.mutation<boolean, void>({
      queryFn: async (_arg, queryApi, extra) => ({ data: await refreshSession(queryApi, extra) }),
    }),
  }),
});

interface Props {
  /** The host deciding the timeout (spec §9: longer on dev hosts). */
  hostname?: string;
}

export function IdleSession({ hostname = window.location.hostname }: Props) {
  const dispatch = useAppDispatch();
  const signedIn = useAppSelector(selectSignedIn);
  const timeoutMs = idleTimeoutMs(hostname);

  useEffect(() => {
    if (!signedIn) return undefined;
    return watchIdle({
      timeoutMs,
      onIdle: () => {
        if (!navigator.onLine) return;
        const request = dispatch(idleApi.endpoints.refreshIdleSession.initiate());
        // Nothing reads the result: drop it from the cache once settled.
        void request.then(() => request.reset());
      },
    });
  }, [signedIn, timeoutMs, dispatch]);

  return null;
}
