//! The network's return reloads the page (spec §4). A page that holds work nowhere but in its
//! memory (a contributor's files not yet sent) holds that reload back while it does: the reload
//! would lose the work, and the page's own Retry sends it.
let holders = 0;

/** Holds the reload back until the returned release is called. */
export function holdReload(): () => void {
  holders += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders -= 1;
  };
}

/** True while some page holds the reload back. */
export const reloadHeld = (): boolean => holders > 0;
