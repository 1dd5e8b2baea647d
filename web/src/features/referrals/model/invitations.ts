//! What an invitation row shows and allows: who it went to, its channel and status in words, the
//! sort choices, and whether (and from when) it may be sent again.
import type { Invitation, InvitationChannel, InvitationSorting, InvitationStatus } from '../api/types';

/** The list holds at most this many invitations (spec §9 "Referral code list page limit 50"). */
export const INVITATION_LIMIT = 50;

/** The list is refreshed this often while its screen is open (spec §9 "Poll interval 30 s"). */
export const INVITATIONS_POLL_MS = 30_000;

export const SORTINGS: { value: InvitationSorting; label: string }[] = [
  { value: 'newest', label: 'Newest' },
  { value: 'oldest', label: 'Oldest' },
  { value: 'name', label: 'Name' },
  { value: 'status', label: 'Status' },
];

export const DEFAULT_SORTING: InvitationSorting = 'newest';

export function isSorting(value: string | null): value is InvitationSorting {
  return SORTINGS.some((s) => s.value === value);
}

const CHANNEL_LABEL: Record<InvitationChannel, string> = { email: 'E-mail', sms: 'SMS' };

const STATUS_LABEL: Record<InvitationStatus, string> = {
  invited: 'Invited',
  signed_up: 'Signed up',
  rewarded: 'Rewarded',
};

const known = <K extends string>(labels: Record<K, string>, value: string): value is K => Object.hasOwn(labels, value);

/** 'E-mail' or 'SMS'; a channel this app does not know yet is shown as the server names it. */
export function channelLabel(channel: string): string {
  return known(CHANNEL_LABEL, channel) ? CHANNEL_LABEL[channel] : channel;
}

/** 'Invited', 'Signed up' or 'Rewarded'; an unknown status as the server names it. */
export function statusLabel(status: string): string {
  return known(STATUS_LABEL, status) ? STATUS_LABEL[status] : status.replace(/_/g, ' ');
}

/** When the invitation was last sent (or made, for a server that gives only that), if known. */
export function sentAt(invitation: Pick<Invitation, 'lastSentAt' | 'createdAt'>): string | null {
  return invitation.lastSentAt ?? invitation.createdAt ?? null;
}

/** The name the friend was invited under, else the address or number it went to. */
export function invitee(invitation: Pick<Invitation, 'name' | 'sentTo'>): string {
  return invitation.name.trim() || invitation.sentTo;
}

/**
 * Whether Resend is offered at all: a friend who has signed up needs no reminder, and an
 * invitation sent as often as it may be would only be refused.
 */
export function offersResend(invitation: Pick<Invitation, 'status' | 'sendsLeft'>): boolean {
  return invitation.status === 'invited' && invitation.sendsLeft > 0;
}

/** Whether the invitation was sent as often as it may be, while the friend has not signed up. */
export function sentOut(invitation: Pick<Invitation, 'status' | 'sendsLeft'>): boolean {
  return invitation.status === 'invited' && invitation.sendsLeft <= 0;
}

/** The moment the invitation may be sent again, or null when nothing holds it back. */
export function resendBlockedUntil(invitation: Pick<Invitation, 'resendAfter'>, now: number): Date | null {
  if (!invitation.resendAfter) return null;
  const at = Date.parse(invitation.resendAfter);
  return Number.isFinite(at) && at > now ? new Date(at) : null;
}

/** The soonest moment one of `invitations` becomes resendable after `now` (to re-render then). */
export function nextUnblock(invitations: readonly Invitation[], now: number): number | null {
  let soonest: number | null = null;
  for (const invitation of invitations) {
    const until = offersResend(invitation) ? resendBlockedUntil(invitation, now) : null;
    if (until && (soonest === null || until.getTime() < soonest)) soonest = until.getTime();
  }
  return soonest;
}
