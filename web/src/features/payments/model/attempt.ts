//! One payment attempt, one Idempotency-Key: the key is made when the user acts and re-sent while
//! the outcome is unknown (no answer, a 5xx), so a retry can never charge twice; a definitive
//! answer (success or a 4xx such as a decline) ends the attempt and the next action makes a new key.
import { useMemo, useRef } from 'react';
import { newIdempotencyKey } from '../../../lib/api/payments';

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
