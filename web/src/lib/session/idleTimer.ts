//! The idle timer of spec §4 "Session" and §9: idle after 10 minutes without user activity (20 on
//! hosts whose name contains 'dev'), activity debounced by 2 seconds. The countdown stops at the
//! first event of a burst of activity and starts again 2 s after its last event, so a stream of
//! events (a mouse moving, a page scrolling) restarts it once, not once per event, and a burst
//! longer than the timeout never counts as idle. Idle is reported once per idle period: the next
//! activity starts a new one.

export const IDLE_TIMEOUT_MS = 10 * 60 * 1000;
export const DEV_IDLE_TIMEOUT_MS = 20 * 60 * 1000;
export const ACTIVITY_DEBOUNCE_MS = 2000;

/** What counts as the user being there. */
export const ACTIVITY_EVENTS = [
  'mousemove',
  'mousedown',
  'keydown',
  'wheel',
  'touchstart',
  'touchmove',
  'scroll',
  'visibilitychange',
] as const;

/** The idle timeout on `hostname` (spec §9). */
export function idleTimeoutMs(hostname: string): number {
  return hostname.includes('dev') ? DEV_IDLE_TIMEOUT_MS : IDLE_TIMEOUT_MS;
}

interface Options {
  timeoutMs: number;
  onIdle: () => void;
  debounceMs?: number;
  /** Where activity is listened for (capturing, so scrolls of inner elements count too). */
  target?: EventTarget;
}

/** Starts counting down to idle at once; returns the function that stops it. */
export function watchIdle({ timeoutMs, onIdle, debounceMs = ACTIVITY_DEBOUNCE_MS, target = document }: Options): () => void {
  let countdown: ReturnType<typeof setTimeout> | undefined;
  let settle: ReturnType<typeof setTimeout> | undefined;

  const startCountdown = () => {
    countdown = setTimeout(onIdle, timeoutMs);
  };
  const onActivity = () => {
    clearTimeout(countdown);
    clearTimeout(settle);
    settle = setTimeout(startCountdown, debounceMs);
  };
  const listen = { capture: true, passive: true } as const;

  for (const name of ACTIVITY_EVENTS) target.addEventListener(name, onActivity, listen);
  startCountdown();
  return () => {
    clearTimeout(countdown);
    clearTimeout(settle);
    for (const name of ACTIVITY_EVENTS) target.removeEventListener(name, onActivity, listen);
  };
}
