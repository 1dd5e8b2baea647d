// The sharing draft: what, which copy and to whom across the share screens; not a persisted slice
// (spec §3) but mirrored to sessionStorage so a reload on checkout keeps it.
import { configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EMPTY_DRAFT,
  isPayable,
  mirrorSharingDraft,
  parseDraft,
  recipientAdded,
  recipientRemoved,
  SESSION_KEY,
  shareDraftCleared,
  shareStarted,
  sharingDraftSlice,
  copyTypeChosen,
  itemsChosen,
  MAX_RECIPIENTS,
  restoredDraft,
} from './draft';
import { shareRequest } from '../api/sharing';

const reduce = sharingDraftSlice.reducer;
const started = reduce(EMPTY_DRAFT, shareStarted('f1'));

afterEach(() => window.sessionStorage.clear());

describe('the sharing draft', () => {
  it('starts for a folder and drops the draft of another folder', () => {
    const withItems = reduce(started, itemsChosen({ wholeFolder: false, itemIds: ['i1'] }));
    expect(reduce(withItems, shareStarted('f1'))).toBe(withItems);
    expect(reduce(withItems, shareStarted('f2'))).toEqual({ ...EMPTY_DRAFT, folderId: 'f2' });
  });

  it('adds each recipient once (e-mail case and spaces aside), at most 20, and removes one', () => {
    let draft = reduce(started, recipientAdded({ email: 'Jane@Example.com' }));
    draft = reduce(draft, recipientAdded({ email: ' jane@example.com ' }));
    draft = reduce(draft, recipientAdded({ phoneNumber: { countryCode: '+1', nationalNumber: '5551234567' } }));
    draft = reduce(draft, recipientAdded({ phoneNumber: { countryCode: '+1', nationalNumber: '5551234567' } }));
    expect(draft.recipients).toHaveLength(2);
    for (let i = 0; i < 30; i += 1) draft = reduce(draft, recipientAdded({ email: `r${i}@example.com` }));
    expect(draft.recipients).toHaveLength(MAX_RECIPIENTS);
    expect(reduce(draft, recipientRemoved(0)).recipients[0]).toEqual({ phoneNumber: { countryCode: '+1', nationalNumber: '5551234567' } });
  });

  it('is payable with items, a copy type and a recipient, and becomes the request body', () => {
    let draft = reduce(started, copyTypeChosen('authenticated'));
    expect(isPayable(draft)).toBe(false);
    draft = reduce(draft, recipientAdded({ email: 'jane@example.com' }));
    draft = reduce(draft, recipientAdded({ phoneNumber: { countryCode: '+44', nationalNumber: '7700900123' } }));
    expect(isPayable(draft)).toBe(true);
    if (!isPayable(draft)) throw new Error('payable');
    expect(shareRequest(draft, 'wallet')).toEqual({
      copy_type: 'authenticated',
      item_ids: [],
      recipients: [{ email: 'jane@example.com' }, { phone_number: { country_code: '+44', national_number: '7700900123' } }],
      pay_with: 'wallet',
    });
    const chosen = reduce(draft, itemsChosen({ wholeFolder: false, itemIds: ['i2'] }));
    expect(isPayable(chosen) && shareRequest(chosen, 'card').item_ids).toEqual(['i2']);
    expect(isPayable(reduce(draft, itemsChosen({ wholeFolder: false, itemIds: [] })))).toBe(false);
  });

  it('is mirrored to sessionStorage, restored from it after a reload, and removed once cleared', () => {
    const store = configureStore({ reducer: { sharingDraft: reduce } });
    mirrorSharingDraft(store);
    store.dispatch(shareStarted('f1'));
    store.dispatch(copyTypeChosen('unauthenticated'));
    store.dispatch(recipientAdded({ email: 'jane@example.com' }));
    expect(parseDraft(window.sessionStorage.getItem(SESSION_KEY))).toEqual(store.getState().sharingDraft);
    // A reload: a new store starts from what the tab kept.
    expect(restoredDraft()).toEqual(store.getState().sharingDraft);
    expect(configureStore({ reducer: { sharingDraft: reduce } }).getState().sharingDraft.recipients).toEqual([{ email: 'jane@example.com' }]);
    store.dispatch(shareDraftCleared());
    expect(window.sessionStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it.each(['', 'not json', '{"folderId":1}', '{"folderId":"f","wholeFolder":true,"itemIds":[],"copyType":"gold","recipients":[]}'])(
    'ignores a stored text that is no draft: %s',
    (text) => expect(parseDraft(text)).toBeNull(),
  );
});
