//! The 'Shares' section of a folder (the owner's controls, from sharing/folder/{id}/details/): each
//! share with its copy type, date, recipients (sent, opened, code checked) and their transaction
//! numbers, copies ready of all; Revoke after a confirmation; for an unauthenticated share, its
//! public link switched on or off, with the link to copy; its conversation ('Messages'). Refreshes itself while copies are made.
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { alreadyReported, firstErrorMessage } from '../../../lib/api/errors';
import { formatDateTime } from '../../../lib/format/format';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { sharingApi, useFolderSharesQuery, useRevokeShareMutation, useSetPublicLinkMutation } from '../api/sharingApi';
import type { Share } from '../api/types';
import { COPY_TYPE_LABELS, MESSAGES, plural, RECIPIENT_STATE_LABELS } from '../model/labels';
import { chatUrl } from '../model/paths';
import '../sharing.css';

/** While copies are being made, the shares refresh this often. */
export const SHARES_POLL_MS = 5000;

export const REVOKE_TITLE = 'Revoke this share?';
export const REVOKE_SUBTITLE = 'Its recipients lose access at once, and its public link stops working.';

const preparing = (share: Share) => !share.revokedAt && share.recipients.some((r) => r.copiesReady < r.copiesTotal);

export function FolderShares({ folderId }: { folderId: string }) {
  const titleId = useId();
  const dispatch = useAppDispatch();
  const cached = sharingApi.endpoints.folderShares.useQueryState(folderId);
  const busy = cached.data?.some(preparing) ?? false;
  const shares = useFolderSharesQuery(folderId, { pollingInterval: busy ? SHARES_POLL_MS : 0 });
  const [revoke, revoking] = useRevokeShareMutation();
  const [setLink, linking] = useSetPublicLinkMutation();
  const [confirming, setConfirming] = useState<Share | null>(null);

  const fail = (error: unknown, fallback: string) => {
    if (!alreadyReported(error)) dispatch(showSnackbar({ message: firstErrorMessage(error, fallback), type: 'error' }));
  };

  const revokeShare = async (share: Share) => {
    const result = await revoke({ shareId: share.id, folderId });
    setConfirming(null);
    if ('error' in result) fail(result.error, MESSAGES.revokeFailed);
    else dispatch(showSnackbar({ message: MESSAGES.revoked, type: 'success' }));
  };

  const toggleLink = async (share: Share) => {
    const result = await setLink({ shareId: share.id, folderId, active: !share.publicLink?.active });
    if ('error' in result) fail(result.error, MESSAGES.linkFailed);
  };

  const copyLink = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      dispatch(showSnackbar({ message: MESSAGES.linkCopied, type: 'success' }));
    } catch {
      dispatch(showSnackbar({ message: MESSAGES.linkNotCopied, type: 'info' }));
    }
  };

  return (
    <section className="sharing-shares" aria-labelledby={titleId}>
      <h2 id={titleId} className="sharing-subtitle">
        Shares
      </h2>
      {shares.isLoading && <p className="muted">Loading…</p>}
      {shares.isError && (
        <div className="sharing-failure">
          <p className="muted">The shares could not be loaded.</p>
          <PrimaryButton variant="secondary" onClick={() => void shares.refetch()}>
            Try again
          </PrimaryButton>
        </div>
      )}
      {shares.data?.length === 0 && <p className="muted">This folder has not been shared yet.</p>}
      <ul className="sharing-share-list">
        {shares.data?.map((share) => {
          const label = `${COPY_TYPE_LABELS[share.copyType]}, ${formatDateTime(share.createdAt)}`;
          return (
            <li key={share.id} className="card sharing-share" aria-label={label} data-testid="share">
              <div className="sharing-share__head">
                <span className={`watermark__badge watermark__badge--${share.copyType}`}>{COPY_TYPE_LABELS[share.copyType]}</span>
                <span className="muted">{formatDateTime(share.createdAt)}</span>
              </div>
              <p className="sharing-share__meta muted">
                {plural(share.itemCount, 'file')} · Payment {share.paymentTransactionNumber}
              </p>
              {share.revokedAt && (
                <p className="sharing-share__revoked" data-testid="share-revoked">
                  Revoked {formatDateTime(share.revokedAt)}
                </p>
              )}
              <ul className="sharing-recipients" aria-label="Recipients">
                {share.recipients.map((recipient) => (
                  <li key={recipient.id} className="sharing-recipient sharing-recipient--column">
                    <span className="sharing-recipient__to">{recipient.sentTo}</span>
                    <span className="sharing-recipient__facts">
                      <span className={`sharing-state sharing-state--${recipient.state}`} data-testid="recipient-state">
                        {RECIPIENT_STATE_LABELS[recipient.state]}
                      </span>
                      <span className="muted">
                        Transaction Number <span data-testid="recipient-transaction-number">{recipient.transactionNumber}</span>
                      </span>
                      <span className="muted" data-testid="copies-ready">
                        Copies ready {recipient.copiesReady}/{recipient.copiesTotal}
                      </span>
                    </span>
                  </li>
                ))}
              </ul>
              {share.copyType === 'unauthenticated' && !share.revokedAt && (
                <div className="sharing-link">
                  <label className="sharing-link__toggle">
                    <input
                      type="checkbox"
                      role="switch"
                      checked={Boolean(share.publicLink?.active)}
                      disabled={linking.isLoading}
                      onChange={() => void toggleLink(share)}
                    />
                    Public link
                  </label>
                  {share.publicLink?.active && (
                    <div className="sharing-link__row">
                      <input className="sharing-link__url" readOnly value={share.publicLink.url} aria-label="Public link" onFocus={(e) => e.currentTarget.select()} />
                      <PrimaryButton variant="secondary" className="sharing-link__copy" onClick={() => void copyLink(share.publicLink?.url ?? '')}>
                        Copy Link
                      </PrimaryButton>
                    </div>
                  )}
                </div>
              )}
              <Link className="link-block" to={chatUrl(share.id)} aria-label={`Messages of ${label}`}>
                Messages
              </Link>
              {!share.revokedAt && (
                <PrimaryButton variant="red" onClick={() => setConfirming(share)}>
                  Revoke
                </PrimaryButton>
              )}
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        isOpen={confirming !== null}
        title={REVOKE_TITLE}
        subTitle={REVOKE_SUBTITLE}
        buttons={[
          { text: 'Revoke', onClick: () => confirming && void revokeShare(confirming), isHighlighted: true, disabled: revoking.isLoading },
          { text: 'Cancel', onClick: () => setConfirming(null), disabled: revoking.isLoading },
        ]}
      />
    </section>
  );
}
