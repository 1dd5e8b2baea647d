//! The base query of the one RTK Query API: bearer token, camelCase responses, a single token
//! refresh on 401 behind a mutex while other requests wait (spec §4 "Session", §9: 500 ms retry
//! wait), log-out when the refresh fails, and the generic message for any 5xx (spec §8), taken away
//! when a later change succeeds. The same refresh serves the idle action (`refreshSession`). A 401
//! about a shared folder's access token (`folder_token_invalid`) is not about the session: it is
//! answered as it is.
import { Mutex } from 'async-mutex';
import {
  fetchBaseQuery,
  type BaseQueryApi,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { camelize } from '../case';
import { loggedOut, tokensReceived, type LoginInfo } from '../session/loginInfoSlice';
import { hideSnackbar, showSnackbar, type SnackbarState } from '../ui/uiSlice';
import { errorStatus, FOLDER_TOKEN_INVALID, hasErrorCode, SERVER_ERROR_MESSAGE } from './errors';

export const REFRESH_RETRY_WAIT_MS = 500;
export const REFRESH_PATH = 'accounts/token/refresh/';

const mutex = new Mutex();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '/api/',
  prepareHeaders: (headers, { getState }) => {
    const token = (getState() as { loginInfo: LoginInfo }).loginInfo.accessToken;
    if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    return headers;
  },
});

const accessToken = (api: BaseQueryApi) => (api.getState() as { loginInfo: LoginInfo }).loginInfo.accessToken;

function isRefresh(args: string | FetchArgs): boolean {
  return (typeof args === 'string' ? args : args.url) === REFRESH_PATH;
}

/** True for a 401 that refuses a shared folder's token, which a new session token would not change. */
const refusesFolderToken = (error: FetchBaseQueryError) => hasErrorCode(error, FOLDER_TOKEN_INVALID);

type ExtraOptions = Parameters<typeof rawBaseQuery>[2];

/**
 * The one token refresh: POST the refresh token, store the new pair, or log out when there is no
 * new pair. Only ever called with the mutex held. True when the session was refreshed.
 */
async function refreshTokens(api: BaseQueryApi, extra: ExtraOptions): Promise<boolean> {
  const refresh = (api.getState() as { loginInfo: LoginInfo }).loginInfo.refreshToken;
  const refreshed = refresh ? await rawBaseQuery({ url: REFRESH_PATH, method: 'POST', body: { refresh } }, api, extra) : undefined;
  const pair = refreshed?.data as { access?: string; refresh?: string } | undefined;
  if (pair?.access && pair.refresh) {
    api.dispatch(tokensReceived({ access: pair.access, refresh: pair.refresh }));
    return true;
  }
  api.dispatch(loggedOut());
  return false;
}

/**
 * Refreshes the session now, not because of a 401 (spec §4 "Session": the idle action), through
 * the same refresh behind the same mutex. A refresh already under way is waited for instead of
 * starting another. True when the device is still signed in afterwards.
 */
export async function refreshSession(api: BaseQueryApi, extra: ExtraOptions = {}): Promise<boolean> {
  if (mutex.isLocked()) {
    await mutex.waitForUnlock();
    return Boolean(accessToken(api));
  }
  const release = await mutex.acquire();
  try {
    return await refreshTokens(api, extra);
  } finally {
    release();
  }
}

export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  await mutex.waitForUnlock();
  const sentWith = accessToken(api);
  let result = await rawBaseQuery(args, api, extra);
  if (result.error?.status === 401 && !isRefresh(args) && !refusesFolderToken(result.error)) {
    if (!mutex.isLocked()) {
      const release = await mutex.acquire();
      try {
        const current = accessToken(api);
        if (current && current !== sentWith) {
          // Another request refreshed the token after this one was sent: retry, don't refresh again.
          result = await rawBaseQuery(args, api, extra);
        } else if (await refreshTokens(api, extra)) {
          result = await rawBaseQuery(args, api, extra);
        }
      } finally {
        release();
      }
    } else {
      // Another request is refreshing: wait for it, then retry with the new token.
      await mutex.waitForUnlock();
      await sleep(REFRESH_RETRY_WAIT_MS);
      if (accessToken(api)) {
        result = await rawBaseQuery(args, api, extra);
      }
    }
  }
  return finish(result, api);
};

type RawResult = Awaited<ReturnType<typeof rawBaseQuery>>;

function finish(result: RawResult, api: BaseQueryApi): RawResult {
  const status = result.error ? errorStatus(result.error) : undefined;
  if (status !== undefined && status >= 500) {
    api.dispatch(showSnackbar({ message: SERVER_ERROR_MESSAGE, type: 'error' }));
  } else if (!result.error && api.type === 'mutation' && showsServerError(api)) {
    // The user tried again and it worked: the failure still on screen is no longer true (a
    // success page under "An error occurred" invites paying twice).
    api.dispatch(hideSnackbar());
  }
  return result.data === undefined ? result : { ...result, data: camelize(result.data) };
}

function showsServerError(api: BaseQueryApi): boolean {
  const { snackbar } = api.getState() as { snackbar: SnackbarState };
  return snackbar.isShown && snackbar.type === 'error' && snackbar.message === SERVER_ERROR_MESSAGE;
}
