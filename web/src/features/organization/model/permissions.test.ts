// The role matrix: which controls each role gets over which participant.
import { describe, expect, it } from 'vitest';
import { canChangeRole, canInvite, canRemove, canRevokeInvites, displayName, invitableRoles } from './permissions';

const owner = { role: 'owner' };
const admin = { role: 'admin' };
const member = { role: 'member' };

describe('the role matrix', () => {
  it('owner and admin invite and revoke invites; a member does not', () => {
    expect([canInvite('owner'), canInvite('admin'), canInvite('member')]).toEqual([true, true, false]);
    expect([canRevokeInvites('owner'), canRevokeInvites('admin'), canRevokeInvites('member')]).toEqual([true, true, false]);
  });

  it('the owner invites admins and members; an admin members only; a member no one', () => {
    expect(invitableRoles('owner')).toEqual(['admin', 'member']);
    expect(invitableRoles('admin')).toEqual(['member']);
    expect(invitableRoles('member')).toEqual([]);
  });

  it('the owner removes anyone but themself', () => {
    expect([canRemove('owner', owner), canRemove('owner', admin), canRemove('owner', member)]).toEqual([false, true, true]);
  });

  it('an admin removes members only', () => {
    expect([canRemove('admin', owner), canRemove('admin', admin), canRemove('admin', member)]).toEqual([false, false, true]);
  });

  it('a member removes no one', () => {
    expect([canRemove('member', owner), canRemove('member', admin), canRemove('member', member)]).toEqual([false, false, false]);
  });

  it('only the owner changes roles, and not their own', () => {
    expect([canChangeRole('owner', owner), canChangeRole('owner', admin), canChangeRole('owner', member)]).toEqual([false, true, true]);
    expect([canChangeRole('admin', member), canChangeRole('admin', admin), canChangeRole('member', member)]).toEqual([false, false, false]);
  });
});

describe('a participant name', () => {
  it('is the first and last name, or the username without them', () => {
    expect(displayName({ firstName: 'Bob', lastName: 'Stone', username: 'bob' })).toBe('Bob Stone');
    expect(displayName({ firstName: 'Bob', lastName: '', username: 'bob' })).toBe('Bob');
    expect(displayName({ firstName: ' ', lastName: null, username: 'bob' })).toBe('bob');
  });
});
