//! The Elements provider around card fields: Stripe.js loaded through loadStripeClient (once for
//! the app), and a message instead of the fields when it cannot be loaded.
import { Elements } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useAppDispatch } from '../store/hooks';
import { loadStripeClient } from './client';

export type StripeStatus = 'loading' | 'ready' | 'failed';

const StatusContext = createContext<StripeStatus>('loading');

/** Whether Stripe.js is loading, ready or failed to load, inside StripeElements. */
export function useStripeStatus(): StripeStatus {
  return useContext(StatusContext);
}

export function StripeElements({ children }: { children: ReactNode }) {
  const dispatch = useAppDispatch();
  const [status, setStatus] = useState<StripeStatus>('loading');
  const [stripe] = useState<Promise<Stripe | null>>(() => loadStripeClient(dispatch).catch(() => null));

  useEffect(() => {
    let current = true;
    void stripe.then((s) => current && setStatus(s ? 'ready' : 'failed'));
    return () => {
      current = false;
    };
  }, [stripe]);

  return (
    <StatusContext.Provider value={status}>
      <Elements stripe={stripe}>{children}</Elements>
    </StatusContext.Provider>
  );
}
