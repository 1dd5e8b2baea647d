// The events history rules: the query string of a page with its filters, the action names, the
// date-range check and short device names.
import { describe, expect, it } from 'vitest';
import {
  ACTION_LABELS,
  describeDevice,
  HISTORY_ACTIONS,
  historyParams,
  NO_FILTERS,
  RANGE_MESSAGE,
  rangeError,
  UNKNOWN_DEVICE,
} from './history';

const query = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

describe('the history query', () => {
  it('asks for a page of 20 and leaves out the filters that are not set', () => {
    expect(query(historyParams(NO_FILTERS, 1))).toBe('page=1&page_size=20');
    expect(query(historyParams(NO_FILTERS, 3))).toBe('page=3&page_size=20');
  });

  it('sends the action and both dates when set', () => {
    expect(query(historyParams({ action: 'sign_in', dateFrom: '2026-11-01', dateTo: '2026-11-21' }, 2))).toBe(
      'page=2&page_size=20&action=sign_in&date_from=2026-11-01&date_to=2026-11-21',
    );
    expect(query(historyParams({ ...NO_FILTERS, dateTo: '2026-11-21' }, 1))).toBe('page=1&page_size=20&date_to=2026-11-21');
  });
});

describe('the action names', () => {
  it('names every action of the contract', () => {
    expect(HISTORY_ACTIONS).toEqual([
      'sign_up',
      'sign_in',
      'sign_in_failed',
      'code_sent',
      'password_verified',
      'password_reset',
      'password_changed',
      'names_changed',
      'username_changed',
      'email_changed',
      'phone_changed',
      'address_changed',
      'communication_method_changed',
      'account_deleted',
      'account_recovered',
      'organization_created',
      'participant_invited',
      'invite_revoked',
      'organization_joined',
      'participant_removed',
      'participant_role_changed',
    ]);
    expect(ACTION_LABELS.sign_in).toBe('Signed in');
    expect(ACTION_LABELS.sign_in_failed).toBe('Failed sign-in');
    expect(new Set(Object.values(ACTION_LABELS)).size).toBe(HISTORY_ACTIONS.length);
  });
});

describe('the date range', () => {
  it('accepts an open or ordered range, one day included, and refuses an end before the start', () => {
    expect(rangeError(NO_FILTERS)).toBeUndefined();
    expect(rangeError({ ...NO_FILTERS, dateFrom: '2026-11-21' })).toBeUndefined();
    expect(rangeError({ ...NO_FILTERS, dateFrom: '2026-11-21', dateTo: '2026-11-21' })).toBeUndefined();
    expect(rangeError({ ...NO_FILTERS, dateFrom: '2026-11-21', dateTo: '2026-11-20' })).toBe(RANGE_MESSAGE);
  });
});

describe('the device of an event', () => {
  it('names the browser and the system', () => {
    expect(
      describeDevice(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      ),
    ).toBe('Chrome on Android');
    expect(
      describeDevice(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iPhone');
    expect(
      describeDevice('Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 CriOS/131.0 Mobile/15E148 Safari/604.1'),
    ).toBe('Chrome on iPhone');
    expect(describeDevice('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe('Firefox on Windows');
    expect(
      describeDevice(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      ),
    ).toBe('Edge on Windows');
    expect(
      describeDevice(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      ),
    ).toBe('Safari on macOS');
    expect(
      describeDevice('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36'),
    ).toBe('Chrome on Linux');
  });

  it('shows what it recognises, a non-browser agent cut at 40 characters, or Unknown device', () => {
    expect(describeDevice('Mozilla/5.0 (X11; Linux x86_64)')).toBe('Linux');
    expect(describeDevice('curl/8.5.0')).toBe('curl/8.5.0');
    expect(describeDevice('python-requests/2.32.3 CPython/3.11.2 SomeVeryLongToolName/1.0')).toBe(
      'python-requests/2.32.3 CPython/3.11.2 So...',
    );
    expect(describeDevice('')).toBe(UNKNOWN_DEVICE);
    expect(describeDevice(null)).toBe(UNKNOWN_DEVICE);
  });
});
