// An invitation row: who it went to, and when Resend is offered and allowed.
import { describe, expect, it } from 'vitest';
import type { Invitation } from '../api/types';
import { channelLabel, invitee, isSorting, nextUnblock, offersResend, resendBlockedUntil, sentAt, sentOut, statusLabel } from './invitations';

const NOW = Date.parse('2026-11-27T06:00:00Z');

const invitation = (overrides: Partial<Invitation> = {}): Invitation => ({
  id: 'i1',
  channel: 'email',
  sentTo: 'friend@example.com',
  name: 'Ann',
  status: 'invited',
  createdAt: '2026-11-20T10:00:00Z',
  lastSentAt: '2026-11-20T10:00:00Z',
  sends: 1,
  resendAfter: null,
  sendsLeft: 4,
  ...overrides,
});

describe('invitations', () => {
  it('names the friend, or the address when no name was given', () => {
    expect(invitee(invitation())).toBe('Ann');
    expect(invitee(invitation({ name: '  ' }))).toBe('friend@example.com');
  });

  it('holds Resend back until resend_after', () => {
    expect(resendBlockedUntil(invitation(), NOW)).toBeNull();
    expect(resendBlockedUntil(invitation({ resendAfter: '2026-11-27T05:59:59Z' }), NOW)).toBeNull();
    expect(resendBlockedUntil(invitation({ resendAfter: '2026-11-27T06:10:00Z' }), NOW)).toEqual(new Date('2026-11-27T06:10:00Z'));
  });

  it('offers Resend only while the friend has not signed up and sends are left', () => {
    expect(offersResend(invitation())).toBe(true);
    expect(offersResend(invitation({ status: 'signed_up' }))).toBe(false);
    expect(offersResend(invitation({ status: 'rewarded' }))).toBe(false);
    expect(offersResend(invitation({ sends: 5, sendsLeft: 0 }))).toBe(false);
    expect(sentOut(invitation({ sends: 5, sendsLeft: 0 }))).toBe(true);
    expect(sentOut(invitation())).toBe(false);
    expect(sentOut(invitation({ status: 'signed_up', sendsLeft: 0 }))).toBe(false);
  });

  it('knows the next moment a held-back invitation may be resent', () => {
    const list = [
      invitation({ id: 'a', resendAfter: '2026-11-27T07:00:00Z' }),
      invitation({ id: 'b', resendAfter: '2026-11-27T06:05:00Z' }),
      invitation({ id: 'c', resendAfter: '2026-11-27T06:01:00Z', status: 'rewarded' }),
      invitation({ id: 'd' }),
    ];
    expect(nextUnblock(list, NOW)).toBe(Date.parse('2026-11-27T06:05:00Z'));
    expect(nextUnblock([invitation()], NOW)).toBeNull();
  });

  it('accepts only the four sortings', () => {
    expect(['newest', 'oldest', 'name', 'status'].every(isSorting)).toBe(true);
    expect(isSorting('size')).toBe(false);
    expect(isSorting(null)).toBe(false);
  });

  it('words the channel and status, and shows a value it does not know as the server names it', () => {
    expect([channelLabel('email'), channelLabel('sms'), channelLabel('whatsapp')]).toEqual(['E-mail', 'SMS', 'whatsapp']);
    expect([statusLabel('invited'), statusLabel('signed_up'), statusLabel('rewarded'), statusLabel('on_hold')]).toEqual([
      'Invited',
      'Signed up',
      'Rewarded',
      'on hold',
    ]);
  });

  it('dates a row by its last sending, else its creation (the document makes both optional)', () => {
    expect(sentAt(invitation({ lastSentAt: '2026-11-21T10:00:00Z' }))).toBe('2026-11-21T10:00:00Z');
    expect(sentAt(invitation({ lastSentAt: null }))).toBe('2026-11-20T10:00:00Z');
    expect(sentAt(invitation({ lastSentAt: undefined, createdAt: null }))).toBeNull();
  });
});
