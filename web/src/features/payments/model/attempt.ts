//! One payment attempt, one Idempotency-Key: the key is made when the user acts and re-sent while
//! the outcome is unknown (no answer, a 5xx), so a retry can never charge twice; a definitive
//! answer (success or a 4xx such as a decline) ends the attempt and the next action makes a new key.
import { useMemo, useRef } from 'react';
import { newIdempotencyKey } from '../../lib/api/payments';

function statusOf(error: unknown): number | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as { status?: unknown; originalStatus?: unknown };
  if (typeof e.status === 'number') return e.status;
  return typeof e.originalStatus === 'number' ? e.originalStatus : undefined;
}

/** True when the server answered for good (a 4xx): the same key would only replay that answer. */
export function isDefinitive(error: unknown): boolean {
  const status = statusOf(error);
  return status !== undefined && status >= 400 && status < 500;
}

/** True for a 5xx: the base query has already shown the generic message (spec §8). */
export function alreadyReported(error: unknown): boolean {
  const status = statusOf(error);
  return status !== undefined && status >= 500;
}

export interface Attempt {
  /** The current attempt's key, made on first use. */
  key: () => string;
  /** Ends the attempt: the next `key()` is a new one. */
  settle: () => void;
}

export function useAttempt(): Attempt {
  const current = useRef<string | null>(null);
  return useMemo(
    () => ({
      key: () => (current.current ??= newIdempotencyKey()),
      settle: () => {
        current.current = null;
      },
    }),
    [],
  );
}
