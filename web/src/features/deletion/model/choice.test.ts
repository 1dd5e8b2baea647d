// The deletion choice read back from a location's state (what survives a reload), and the start
// screen's message with the recoverable-until date (spec §9 date format 'MMM D, YYYY').
import { describe, expect, it } from 'vitest';
import { choiceFrom, choiceState, deletedMessage } from './choice';

describe('the deletion choice', () => {
  const choice = { reasonId: 'other', reasonTitle: 'Other', details: 'Moving on' };

  it('is read back from the state it was written to', () => {
    expect(choiceFrom(choiceState(choice))).toEqual(choice);
  });

  it('is missing from a state without one or with a broken one', () => {
    expect(choiceFrom(null)).toBeUndefined();
    expect(choiceFrom(undefined)).toBeUndefined();
    expect(choiceFrom({ from: '/x' })).toBeUndefined();
    expect(choiceFrom({ choice: null })).toBeUndefined();
    expect(choiceFrom({ choice: { ...choice, reasonId: '' } })).toBeUndefined();
    expect(choiceFrom({ choice: { ...choice, details: 3 } })).toBeUndefined();
    expect(choiceFrom({ choice: { reasonId: 'privacy', details: '' } })).toBeUndefined();
  });

  it('says until when the account can be recovered', () => {
    expect(deletedMessage('2026-12-21T12:00:00Z')).toBe('Your account was deleted. You can recover it until Dec 21, 2026.');
  });
});
