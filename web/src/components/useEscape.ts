//! Escape closes the topmost open dialog or sheet (WCAG 2.1.2, and what users expect of an overlay):
//! each open one registers its close action, and only the last registered answers the key, so a
//! confirmation over a full-screen dialog closes alone.
import { useEffect, useRef } from 'react';

const open: { close: () => void }[] = [];

function onKeyDown(event: KeyboardEvent) {
  if (event.key !== 'Escape' || event.defaultPrevented) return;
  const top = open.at(-1);
  if (!top) return;
  event.preventDefault();
  top.close();
}

/** While `active`, Escape calls `onEscape` when this is the topmost open overlay. */
export function useEscape(onEscape: (() => void) | undefined, active = true) {
  const latest = useRef(onEscape);
  useEffect(() => {
    latest.current = onEscape;
  });
  useEffect(() => {
    if (!active) return undefined;
    const entry = { close: () => latest.current?.() };
    open.push(entry);
    if (open.length === 1) document.addEventListener('keydown', onKeyDown);
    return () => {
      open.splice(open.indexOf(entry), 1);
      if (open.length === 0) document.removeEventListener('keydown', onKeyDown);
    };
  }, [active]);
}
