//! `/referral-code`: the user's invitations (at most 50, sorted by the server: newest, oldest, name
//! or status), refreshed every 30 s while the screen is open (spec §9). Each row shows who it went
//! to, by which channel, its status and when it was last sent; Resend waits for the invitation's
//! `resend_after` (the server's limit, whose 429 message is shown as it is), Delete asks first.
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { BackControl } from '../../../components/BackControl';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { alreadyReported, errorStatus, firstErrorMessage } from '../../../lib/api/errors';
import { formatDate, formatDateTime } from '../../../lib/format/format';
import { useAppDispatch } from '../../../lib/store/hooks';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useDeleteInvitationMutation, useInvitationsQuery, useResendInvitationMutation } from '../api/referralsApi';
import type { Invitation, InvitationSorting } from '../api/types';
import { LoadError, Loading } from '../components/LoadState';
import {
  channelLabel,
  DEFAULT_SORTING,
  INVITATION_LIMIT,
  INVITATIONS_POLL_MS,
  invitee,
  isSorting,
  nextUnblock,
  offersResend,
  resendBlockedUntil,
  sentAt,
  sentOut,
  SORTINGS,
  statusLabel,
} from '../model/invitations';
import '../referrals.css';

export const RESENT = 'Invitation sent again.';
export const DELETED = 'Invitation deleted.';
export const TOO_SOON = 'This invitation was sent a moment ago. Please try again later.';
export const GONE = 'This invitation no longer exists.';
export const NOT_DONE = 'Something went wrong. Please try again.';
export const LIST_NOT_LOADED = 'Your invitations could not be loaded.';

/** The current time, moved on when the next held-back invitation may be resent. */
function useNowUntil(invitations: readonly Invitation[]): number {
  const [now, setNow] = useState(() => Date.now());
  const next = nextUnblock(invitations, now);
  useEffect(() => {
    if (next === null) return;
    // A timer's delay is capped (2^31 ms); a later moment is reached in steps.
    const timer = setTimeout(() => setNow(Date.now()), Math.min(Math.max(next - Date.now(), 0) + 50, 2_000_000_000));
    return () => clearTimeout(timer);
  }, [next]);
  return now;
}

export function ReferralCodePage() {
  const dispatch = useAppDispatch();
  const [sorting, setSorting] = useState<InvitationSorting>(DEFAULT_SORTING);
  const list = useInvitationsQuery(sorting, { pollingInterval: INVITATIONS_POLL_MS });
  const [resend] = useResendInvitationMutation();
  const [remove, removing] = useDeleteInvitationMutation();
  const [resending, setResending] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Invitation | null>(null);
  const invitations = list.data?.invitations.slice(0, INVITATION_LIMIT) ?? [];
  const now = useNowUntil(invitations);

  const report = (error: unknown, fallback: string) => {
    if (alreadyReported(error)) return;
    if (errorStatus(error) === 404) {
      dispatch(showSnackbar({ message: GONE, type: 'error' }));
      void list.refetch();
      return;
    }
    dispatch(showSnackbar({ message: firstErrorMessage(error, fallback), type: 'error' }));
  };

  const resendOne = async (invitation: Invitation) => {
    setResending(invitation.id);
    const sent = await resend(invitation.id);
    setResending(null);
    if ('error' in sent) return report(sent.error, errorStatus(sent.error) === 429 ? TOO_SOON : NOT_DONE);
    dispatch(showSnackbar({ message: RESENT, type: 'success' }));
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const done = await remove(deleting.id);
    setDeleting(null);
    if ('error' in done) return report(done.error, NOT_DONE);
    dispatch(showSnackbar({ message: DELETED, type: 'success' }));
  };

  return (
    <main className="page referrals-page--with-bottom">
      <BackControl to="/refer-a-friend" label="Refer a Friend" />
      <h1>My Invitations</h1>
      <div className="field referrals-sort">
        <label htmlFor="referrals-sorting">Sort by</label>
        <select
          id="referrals-sorting"
          value={sorting}
          onChange={(e) => {
            if (isSorting(e.target.value)) setSorting(e.target.value);
          }}
        >
          {SORTINGS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      {list.isLoading && <Loading what="Loading your invitations..." />}
      {list.isError && !list.data && <LoadError message={LIST_NOT_LOADED} onRetry={() => void list.refetch()} />}
      {list.data && invitations.length === 0 && <p className="muted">You have not invited anyone yet.</p>}
      {invitations.length > 0 && (
        <ul className="referrals-list" aria-label="Invitations" aria-busy={list.isFetching}>
          {invitations.map((invitation) => {
            const who = invitee(invitation);
            const blockedUntil = resendBlockedUntil(invitation, now);
            const sent = sentAt(invitation);
            return (
              <li key={invitation.id} className="referrals-row" aria-label={who}>
                <p className="referrals-row__who">{who}</p>
                {who !== invitation.sentTo && <p className="referrals-row__address">{invitation.sentTo}</p>}
                <p className="referrals-row__meta">
                  <span>{channelLabel(invitation.channel)}</span>
                  <span className={`referrals-status referrals-status--${invitation.status}`}>{statusLabel(invitation.status)}</span>
                  {sent && (
                    <span>
                      Sent {formatDate(sent)}
                      {invitation.sends > 1 ? ` (${invitation.sends} times)` : ''}
                    </span>
                  )}
                </p>
                {offersResend(invitation) && blockedUntil && (
                  <p className="referrals-row__wait">Can be sent again from {formatDateTime(blockedUntil)}</p>
                )}
                {sentOut(invitation) && (
                  <p className="referrals-row__wait">Sent {invitation.sends} times: it cannot be sent again.</p>
                )}
                <div className="referrals-row__actions">
                  {offersResend(invitation) && (
                    <PrimaryButton
                      variant="secondary"
                      aria-label={`Resend to ${who}`}
                      disabled={blockedUntil !== null}
                      loading={resending === invitation.id}
                      onClick={() => void resendOne(invitation)}
                    >
                      Resend
                    </PrimaryButton>
                  )}
                  <PrimaryButton variant="secondary" aria-label={`Delete the invitation to ${who}`} onClick={() => setDeleting(invitation)}>
                    Delete
                  </PrimaryButton>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {invitations.length >= INVITATION_LIMIT && <p className="muted">The list shows at most {INVITATION_LIMIT} invitations.</p>}
      <div className="referrals-bottom">
        <Link to="/refer/sms" className="btn btn--primary">
          Invite by SMS
        </Link>
        <Link to="/refer/email" className="btn btn--primary">
          Invite by E-mail
        </Link>
      </div>
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete invitation?"
        subTitle={deleting ? `The invitation to ${invitee(deleting)} will be removed from your list.` : undefined}
        buttons={[
          { text: 'Delete', onClick: () => void confirmDelete(), isHighlighted: true, disabled: removing.isLoading },
          { text: 'Cancel', onClick: () => setDeleting(null) },
        ]}
      />
    </main>
  );
}
