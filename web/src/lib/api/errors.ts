//! Reading the API's one error shape: the client shows the first server error message (spec §8).
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

export const SERVER_ERROR_MESSAGE = 'An error occurred. Please try again later.';
/** Spec §8: a request that got no answer. */
export const NETWORK_LOST = 'The network connection is poor or was lost.';

/** The code of a 401 refusing a shared folder's access token (header X-Folder-Token or a public link). */
export const FOLDER_TOKEN_INVALID = 'folder_token_invalid';

interface ErrorItem {
  message: string;
  code?: string;
  field?: string;
}

function items(error: unknown): ErrorItem[] {
  if (!error || typeof error !== 'object' || !('data' in error)) return [];
  const data = (error as { data: unknown }).data;
  if (!data || typeof data !== 'object' || !('errors' in data)) return [];
  const list = (data as { errors: unknown }).errors;
  return Array.isArray(list) ? (list.filter((e) => e && typeof e === 'object' && 'message' in e) as ErrorItem[]) : [];
}

/** True when the request got no answer at all (no connection, or it timed out). */
export function noAnswer(error: unknown): boolean {
  if (!error || typeof error !== 'object' || !('status' in error)) return false;
  const status = (error as { status: unknown }).status;
  return status === 'FETCH_ERROR' || status === 'TIMEOUT_ERROR';
}

/**
 * The first server error message, or `fallback`; for a request that got no answer, spec §8's
 * 'The network connection is poor or was lost.' (a screen's own fallback would say the action
 * failed, which nobody knows).
 */
export function firstErrorMessage(error: FetchBaseQueryError | SerializedError | undefined | unknown, fallback: string): string {
  if (noAnswer(error)) return NETWORK_LOST;
  return items(error)[0]?.message ?? fallback;
}

/** True when one of the server's errors has `code`. */
export function hasErrorCode(error: unknown, code: string): boolean {
  return items(error).some((item) => item.code === code);
}

/** Field errors by field name (the first message of each field). */
export function fieldErrors(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items(error)) {
    if (item.field && !(item.field in out)) out[item.field] = item.message;
  }
  return out;
}


/**
 * The HTTP status of a failed call, also of an answer whose body was not JSON (a proxy's plain-text
 * 502 or 503 is a server failure, not a missing answer); undefined when no answer came.
 */
export function errorStatus(error: unknown): number | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as { status?: unknown; originalStatus?: unknown };
  if (typeof e.status === 'number') return e.status;
  return typeof e.originalStatus === 'number' ? e.originalStatus : undefined;
}

/** True when the server answered for good (a 4xx): the same key would only replay that answer. */
export function isDefinitive(error: unknown): boolean {
  const status = errorStatus(error);
  return status !== undefined && status >= 400 && status < 500;
}

/** The code of a 401 refusing the session's token, once its refresh failed too. */
export const SESSION_TOKEN_INVALID = 'token_not_valid';

/**
 * True when the user has already been told: a 5xx (the base query showed the generic message,
 * spec §8), or the session's own 401 (its refresh failed and the user was logged out, which says
 * it; the gateway's text for it is not for people).
 */
export function alreadyReported(error: unknown): boolean {
  const status = errorStatus(error);
  if (status === 401 && hasErrorCode(error, SESSION_TOKEN_INVALID)) return true;
  return status !== undefined && status >= 500;
}
