//! The referral screens' waiting and failure states: a spinner that says what is loading (and, on a
//! slow connection, that it is still coming), and an error banner with Try again.
import { useEffect, useState } from 'react';
import { InfoBanner } from '../../../components/InfoBanner';

/** After this long a request counts as slow, and the screen says so. */
export const SLOW_AFTER_MS = 8000;
export const SLOW_MESSAGE = 'This is taking longer than usual. Check your connection.';

export function Loading({ what }: { what: string }) {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), SLOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <div className="referrals-loading" role="status">
      <span className="app-loading__spinner referrals-loading__spinner" aria-hidden="true" />
      <span>{what}</span>
      {slow && <span className="muted">{SLOW_MESSAGE}</span>}
    </div>
  );
}

export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return <InfoBanner type="error" title={message} actionLabel="Try again" onAction={onRetry} />;
}
