//! One payment attempt, one Idempotency-Key: the key is made when the user acts and re-sent while
//! the outcome is unknown (no answer, a 5xx), so a retry can never charge twice; a definitive
//! answer (success or a 4xx such as a decline) ends the attempt and the next action makes a new key.
//!
//! With a scope (what is being bought, and how), the key of an attempt whose outcome is unknown is
//! kept in the tab's session storage: the same purchase started again after a reload, or after
//! leaving checkout and coming back, re-sends it, and the server answers with the first outcome
//! instead of charging again.
import { useMemo, useRef } from 'react';
import { newIdempotencyKey } from '../../../lib/api/payments';

export interface Attempt {
  /** The current attempt's key, made on first use. */
  key: () => string;
  /** Ends the attempt: the next `key()` is a new one. */
  settle: () => void;
}

const STORED_PREFIX = 'evidentia.payment-attempt:';

/** The tab's session storage, or null where the browser refuses it (the key then lives in memory). */
function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function useAttempt(scope?: string): Attempt {
  const current = useRef<{ scope?: string; key: string } | null>(null);
  return useMemo(() => {
    const stored = scope === undefined ? null : storage();
    const name = `${STORED_PREFIX}${scope}`;
    return {
      key: () => {
        if (current.current && current.current.scope === scope) return current.current.key;
        let key: string | null = null;
        try {
          key = stored?.getItem(name) ?? null;
          if (!key) {
            key = newIdempotencyKey();
            stored?.setItem(name, key);
          }
        } catch {
          key ??= newIdempotencyKey();
        }
        current.current = { scope, key };
        return key;
      },
      settle: () => {
        current.current = null;
        try {
          stored?.removeItem(name);
        } catch {
          // Nothing was kept.
        }
      },
    };
  }, [scope]);
}
