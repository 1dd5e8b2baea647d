//! The offline store's count (captures waiting on this device), kept current in this tab.
import { useEffect, useState } from 'react';
import { offlineStore } from './offlineStore';

export interface OfflineWaiting {
  count: number;
  /** The situation stored first (the banner's Continue), when any waits. */
  firstSituation?: string;
}

export function useOfflineWaiting(): OfflineWaiting {
  const [waiting, setWaiting] = useState<OfflineWaiting>({ count: 0 });
  useEffect(() => {
    let active = true;
    const load = () =>
      Promise.all([offlineStore.count(), offlineStore.firstSituation()]).then(
        ([count, firstSituation]) => {
          if (active) setWaiting(firstSituation ? { count, firstSituation } : { count });
        },
        // IndexedDB unavailable (a private window on some browsers): nothing can wait here.
        () => undefined,
      );
    void load();
    const unsubscribe = offlineStore.subscribe(() => void load());
    return () => {
      active = false;
      unsubscribe();
    };
  }, []);
  return waiting;
}
