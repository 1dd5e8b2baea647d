//! A folder's 'Contribution links': links that let someone without an account add files to the
//! folder after proving their e-mail. Each shows who it went to, its state (active, expired,
//! revoked, used up), submissions used of its maximum and its expiry, with Copy and, while active,
//! Revoke (after a confirmation). Any participant makes and revokes links.
import { useState } from 'react';
import { useAppDispatch } from '../../../lib/store/hooks';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { errorStatus, firstErrorMessage, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { formatDateTime } from '../../../lib/format/format';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useContributionLinksQuery, useRevokeContributionLinkMutation } from '../api/captureApi';
import type { ContributionLink, LinkState } from '../api/types';
import { FAILED_MESSAGE, LINK_COPIED, LINK_REVOKED, NO_LINKS } from '../model/messages';
import { ContributionLinkDialog } from './ContributionLinkDialog';

export const LINK_STATE_LABELS: Record<LinkState, string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked', used_up: 'Used up' };
export const COPY_FAILED = 'The link could not be copied.';

export function ContributionLinks({ folderId, canCreate }: { folderId: string; canCreate: boolean }) {
  const dispatch = useAppDispatch();
  const links = useContributionLinksQuery(folderId);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ContributionLink | null>(null);
  const [revokeLink, revocation] = useRevokeContributionLinkMutation();

  const revoke = async (link: ContributionLink) => {
    const result = await revokeLink({ linkId: link.id, folderId });
    setRevoking(null);
    if (!('error' in result)) {
      dispatch(showSnackbar({ message: LINK_REVOKED, type: 'info' }));
      return;
    }
    const status = errorStatus(result.error);
    if (status === undefined || status < 500) dispatch(showSnackbar({ message: firstErrorMessage(result.error, FAILED_MESSAGE), type: 'error' }));
  };

  const copy = async (link: ContributionLink) => {
    try {
      await navigator.clipboard.writeText(link.url);
      dispatch(showSnackbar({ message: LINK_COPIED, type: 'info' }));
    } catch {
      dispatch(showSnackbar({ message: COPY_FAILED, type: 'error' }));
    }
  };

  return (
    <section aria-labelledby="org-links-title" className="org-links">
      <h2 id="org-links-title" className="org__section-title">
        Contribution links
      </h2>
      <p className="muted">Someone without an account can add files to this folder through a link, after proving their e-mail.</p>
      {canCreate && (
        <PrimaryButton variant="secondary" onClick={() => setCreating(true)}>
          New Contribution Link
        </PrimaryButton>
      )}
      {links.isLoading && <p className="muted">Loading…</p>}
      {links.isError && (
        <>
          <InfoBanner type="error" title={firstErrorMessage(links.error, SERVER_ERROR_MESSAGE)} />
          <PrimaryButton variant="secondary" onClick={() => void links.refetch()}>
            Try Again
          </PrimaryButton>
        </>
      )}
      {links.data && links.data.length === 0 && <p className="muted">{NO_LINKS}</p>}
      {links.data && links.data.length > 0 && (
        <ul className="org-list" aria-label="Contribution links">
          {links.data.map((link) => (
            <li key={link.id} className="org-row" data-testid="contribution-link" data-state={link.state}>
              <div className="org-row__body">
                <span className="org-row__name">{link.sentTo}</span>
                <span className="muted">
                  {link.channel === 'sms' ? 'By SMS' : 'By E-mail'} · {link.submissions} of {link.maxSubmissions} submissions used
                </span>
                <span className="muted">
                  {link.state === 'expired' ? 'Expired' : 'Expires'} {formatDateTime(link.expiresAt)}
                </span>
              </div>
              <div className="org-row__side">
                <span className={`org-badge org-badge--link-${link.state}`}>{LINK_STATE_LABELS[link.state] ?? link.state}</span>
                {link.state === 'active' && (
                  <>
                    <button type="button" className="link org-row__action" aria-label={`Copy the link to ${link.sentTo}`} onClick={() => void copy(link)}>
                      Copy link
                    </button>
                    <button type="button" className="link org-row__action" aria-label={`Revoke the link to ${link.sentTo}`} onClick={() => setRevoking(link)}>
                      Revoke
                    </button>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {creating && <ContributionLinkDialog folderId={folderId} onClose={() => setCreating(false)} />}
      <ConfirmDialog
        isOpen={revoking !== null}
        title="Revoke Link?"
        subTitle={revoking ? `${revoking.sentTo} will no longer be able to add files through this link.` : undefined}
        buttons={[
          { text: 'Revoke', isHighlighted: true, disabled: revocation.isLoading, onClick: () => revoking && void revoke(revoking) },
          { text: 'Cancel', onClick: () => setRevoking(null) },
        ]}
      />
    </section>
  );
}
