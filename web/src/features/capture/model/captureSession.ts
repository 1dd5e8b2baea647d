//! The open capture session of this tab: the situation (and so the folder) that a plain visit to
//! /evidence continues. Leaving the capture screen without 'Done' (Back, another tab of the app)
//! and coming back keeps filling the same folder; 'Done' closes the session, and the next visit
//! starts a new situation with a folder of its own. Kept in sessionStorage: a new tab or a
//! restarted browser starts afresh (captures still waiting offline are resumed by their own
//! situation, from the network banner).

export const CAPTURE_SESSION_KEY = 'evidentia:capture-session';

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    // Storage can be refused (privacy settings): every visit is then a session of its own.
    return undefined;
  }
}

/** The open session's situation, or a new one (remembered as open). */
export function openCaptureSession(newId: () => string = () => crypto.randomUUID()): string {
  const store = storage();
  const open = store?.getItem(CAPTURE_SESSION_KEY);
  if (open) return open;
  const situation = newId();
  store?.setItem(CAPTURE_SESSION_KEY, situation);
  return situation;
}

/**
 * True when `situation` is this tab's open session: a situation the app made up, which names no
 * folder until an upload makes one (the folder gets an id of its own).
 */
export function isOpenCaptureSession(situation: string | null): boolean {
  return situation !== null && storage()?.getItem(CAPTURE_SESSION_KEY) === situation;
}

/** Ends the session of `situation` (a no-op when another one is open). */
export function closeCaptureSession(situation: string | null): void {
  const store = storage();
  if (situation && store?.getItem(CAPTURE_SESSION_KEY) === situation) store.removeItem(CAPTURE_SESSION_KEY);
}
