//! Sharing the referral link: the system share sheet where the browser has one (phones), else the
//! link copied to the clipboard. Takes the browser's navigator, so tests give their own.

export type ShareOutcome = 'shared' | 'cancelled' | 'copied' | 'failed';

export interface ShareTarget {
  share?: (data: ShareData) => Promise<void>;
  clipboard?: Pick<Clipboard, 'writeText'>;
}

/** True when the browser offers the system share sheet. */
export function canShare(target: ShareTarget): boolean {
  return typeof target.share === 'function';
}

/**
 * Opens the share sheet with `text` and `url`, or copies `url` where there is none. Closing the
 * sheet is the user's choice (cancelled); a sheet that fails otherwise falls back to copying.
 */
export async function shareLink(target: ShareTarget, text: string, url: string): Promise<ShareOutcome> {
  if (canShare(target)) {
    try {
      await target.share!({ title: 'Evidentia', text, url });
      return 'shared';
    } catch (error) {
      // A DOMException is not an Error in every engine: read its name.
      if ((error as { name?: unknown } | null)?.name === 'AbortError') return 'cancelled';
    }
  }
  try {
    if (!target.clipboard) return 'failed';
    await target.clipboard.writeText(url);
    return 'copied';
  } catch {
    return 'failed';
  }
}
