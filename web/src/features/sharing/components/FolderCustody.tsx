//! The chain of custody of a folder's files (proof metadata): each file's log from
//! sharing/folder/{id}/contents/ (captured, uploaded, verified, shared, copies, codes, views,
//! downloads, revocations; each entry hashed onto the one before), and 'Check custody chain'
//! (sharing/folder/{id}/authenticate/), which walks every file's chain and says it is intact or
//! names the first entry that does not hold. With an item, only that file (its Details sheet).
//!
//! 'Download evidence packet' (the folder's, or in Details the file's) asks for a short-lived link and
//! follows it: the browser downloads the ZIP as it streams, with the files, signed receipts,
//! custody logs and the `verify.sh` that checks them offline.
import { useId } from 'react';
import { useAppDispatch } from '../../../lib/store/hooks';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { alreadyReported, firstErrorMessage } from '../../../lib/api/errors';
import { formatDateTime } from '../../../lib/format/format';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useCheckCustodyMutation, useCreatePacketMutation, useFolderContentsQuery } from '../api/sharingApi';
import type { ChainCheckItem } from '../api/types';
import { CUSTODY_KIND_LABELS, plural } from '../model/labels';
import '../sharing.css';

export const CHECK_FAILED = 'The custody chain could not be checked.';
export const PACKET_FAILED = 'The evidence packet could not be prepared.';
/** How long after the download starts the log is read again (it then holds the export). */
const REFRESH_AFTER_MS = 3000;

/** Starts a download the browser handles itself (the packet streams; nothing is held here). */
export function followDownload(url: string) {
  window.location.assign(url);
}

/** What the check found for one file. */
export function chainVerdict(check: ChainCheckItem): string {
  if (check.intact) return `Intact: ${plural(check.entries, 'entry', 'entries')} checked.`;
  const broken = check.firstBroken;
  if (!broken) return 'Broken.';
  return `Broken at entry ${broken.seq} (${CUSTODY_KIND_LABELS[broken.kind] ?? broken.kind}, ${formatDateTime(broken.at)}).`;
}

interface Props {
  folderId: string;
  /** Only this file's log and packet (its Details sheet). */
  itemId?: string;
  /** How a packet's link is followed (a test watches it). */
  follow?: (url: string) => void;
}

export function FolderCustody({ folderId, itemId, follow = followDownload }: Props) {
  const titleId = useId();
  const dispatch = useAppDispatch();
  const contents = useFolderContentsQuery(folderId);
  const [check, checking] = useCheckCustodyMutation();
  const [createPacket, creating] = useCreatePacketMutation();
  const verdicts = new Map((checking.data ?? []).map((item) => [item.itemId, item]));

  const run = async () => {
    const result = await check(folderId);
    if ('error' in result && !alreadyReported(result.error)) {
      dispatch(showSnackbar({ message: firstErrorMessage(result.error, CHECK_FAILED), type: 'error' }));
    }
  };

  const download = async () => {
    const result = await createPacket({ folderId, itemIds: itemId ? [itemId] : undefined });
    if ('error' in result) {
      if (!alreadyReported(result.error)) {
        dispatch(showSnackbar({ message: firstErrorMessage(result.error, PACKET_FAILED), type: 'error' }));
      }
      return;
    }
    follow(result.data.url);
    window.setTimeout(() => void contents.refetch(), REFRESH_AFTER_MS);
  };

  return (
    <section className="sharing-custody" aria-labelledby={titleId}>
      <h2 id={titleId} className="sharing-subtitle">
        Chain of custody
      </h2>
      <PrimaryButton variant="secondary" loading={checking.isLoading} disabled={!contents.data?.length} onClick={() => void run()}>
        Check custody chain
      </PrimaryButton>
      <div className="sharing-packet">
        <PrimaryButton variant="secondary" loading={creating.isLoading} onClick={() => void download()}>
          Download evidence packet
        </PrimaryButton>
        <p className="muted">
          {itemId
            ? 'A ZIP of this file with its signed receipt and custody log.'
            : "A ZIP of this folder's verified files with their signed receipts and custody logs."}{' '}
          Anyone can check it offline: the VERIFY.md inside explains how.
        </p>
      </div>
      {contents.isLoading && <p className="muted">Loading…</p>}
      {contents.isError && (
        <div className="sharing-failure">
          <p className="muted">The custody log could not be loaded.</p>
          <PrimaryButton variant="secondary" onClick={() => void contents.refetch()}>
            Try again
          </PrimaryButton>
        </div>
      )}
      {contents.data?.filter((item) => !itemId || item.itemId === itemId).map((item) => {
        const verdict = verdicts.get(item.itemId);
        return (
          <section key={item.itemId} className="card sharing-custody__item" aria-label={`Custody of ${item.name}`}>
            <h3 className="sharing-custody__name">{item.name}</h3>
            <p className="muted sharing-custody__counts">
              Shared with {plural(item.sharedCounter, 'recipient')}; {item.sharingAvailableCounter} can still open it
            </p>
            {verdict && (
              <p className={`sharing-verdict sharing-verdict--${verdict.intact ? 'intact' : 'broken'}`} role="status" data-testid="custody-verdict">
                {chainVerdict(verdict)}
              </p>
            )}
            <ol className="sharing-custody__log" aria-label={`Custody log of ${item.name}`}>
              {item.custody.map((entry) => {
                const broken = verdict?.firstBroken?.seq === entry.seq;
                return (
                  <li key={entry.seq} className={`sharing-custody__entry${broken ? ' sharing-custody__entry--broken' : ''}`}>
                    <span className="sharing-custody__kind">
                      {entry.seq}. {CUSTODY_KIND_LABELS[entry.kind] ?? entry.kind}
                    </span>
                    <span className="muted">{formatDateTime(entry.at)}</span>
                    {entry.detail && <span className="sharing-custody__detail">{entry.detail}</span>}
                    <span className="sharing-hash" title={entry.hash}>
                      {entry.hash.slice(0, 16)}…
                    </span>
                  </li>
                );
              })}
            </ol>
          </section>
        );
      })}
    </section>
  );
}
