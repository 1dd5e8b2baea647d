//! The device location while a capture screen is open (watchPosition), and whether it was refused.
import { useEffect, useState } from 'react';

export type LocationState =
  | { status: 'locating' }
  | { status: 'located'; latitude: number; longitude: number; accuracy: number }
  | { status: 'denied' }
  | { status: 'unavailable' };

export function useLocation(): LocationState {
  const [state, setState] = useState<LocationState>(() =>
    typeof navigator !== 'undefined' && 'geolocation' in navigator ? { status: 'locating' } : { status: 'unavailable' },
  );

  useEffect(() => {
    if (!('geolocation' in navigator)) return undefined;
    const id = navigator.geolocation.watchPosition(
      (position) =>
        setState({
          status: 'located',
          latitude: position.coords.latitude,
          longitude: position.coords.longitude,
          accuracy: position.coords.accuracy,
        }),
      (error) =>
        // Keep a known position through a later timeout; a refusal always shows.
        setState((current) =>
          error.code === error.PERMISSION_DENIED ? { status: 'denied' } : current.status === 'located' ? current : { status: 'unavailable' },
        ),
      { enableHighAccuracy: true, maximumAge: 10_000, timeout: 20_000 },
    );
    return () => navigator.geolocation.clearWatch(id);
  }, []);

  return state;
}
