// /date-and-time: the spec §9 formats with today's example, the automatic zone naming the device's,
// choosing a zone with the search (stored in the ui slice, and then every formatter uses it), and
// back to automatic.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt, serve } from '../../../testing';
import { formatDateTime } from '../../../lib/format/format';
import { timeZoneChosen } from '../../../lib/ui/uiSlice';
import { makeAccountStore } from '../testing/helpers';
import { DateAndTimePage } from './DateAndTimePage';

const deviceZone = process.env.TZ;
let stopZone = () => {};

beforeEach(() => {
  // The device is in Berlin; it is 14:07 UTC on Nov 21, 2026.
  process.env.TZ = 'Europe/Berlin';
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-21T14:07:00Z'));
  serve({});
});

afterEach(() => {
  stopZone();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  if (deviceZone === undefined) delete process.env.TZ;
  else process.env.TZ = deviceZone;
});

function open(zone: string | null = null) {
  const { store, stop } = makeAccountStore(zone);
  stopZone = stop;
  renderAt(store, [{ path: '/date-and-time', element: <DateAndTimePage /> }], '/date-and-time');
  return store;
}

describe('date and time', () => {
  it("shows the formats with today's date in the device's zone when automatic", () => {
    open();
    expect(screen.getByTestId('format-date')).toHaveTextContent('Nov 21, 2026');
    expect(screen.getByTestId('format-date-time')).toHaveTextContent('Nov 21, 2026 · 15:07');
    expect(screen.getByText('24-hour')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Automatic (this device: Europe/Berlin)' })).toBeChecked();
    expect(screen.getByTestId('shown-in')).toHaveTextContent('Dates are shown in Europe/Berlin.');
    expect(screen.queryByLabelText('Search time zones')).not.toBeInTheDocument();
  });

  it('chooses a zone through the search; it is stored and every date follows it', async () => {
    const user = userEvent.setup();
    const store = open();
    await user.click(screen.getByRole('radio', { name: 'Choose a time zone' }));
    // Choosing the mode alone changes nothing yet.
    expect(store.getState().ui.timeZone).toBeNull();
    await user.type(screen.getByLabelText('Search time zones'), 'tokyo');
    const zones = within(screen.getByRole('list', { name: 'Time zones' })).getAllByRole('radio');
    expect(zones.map((r) => r.closest('label')?.textContent)).toEqual(['Asia/Tokyo GMT+9']);
    await user.click(screen.getByRole('radio', { name: /Asia\/Tokyo/ }));

    expect(store.getState().ui.timeZone).toBe('Asia/Tokyo');
    expect(screen.getByRole('radio', { name: /Asia\/Tokyo/ })).toBeChecked();
    expect(screen.getByTestId('format-date-time')).toHaveTextContent('Nov 21, 2026 · 23:07');
    expect(screen.getByTestId('shown-in')).toHaveTextContent('Dates are shown in Asia/Tokyo.');
    // Any screen's date, formatted without naming a zone.
    expect(formatDateTime('2026-11-21T20:30:00Z')).toBe('Nov 22, 2026 · 05:30');
  });

  it('says when no zone matches the search', async () => {
    const user = userEvent.setup();
    open();
    await user.click(screen.getByRole('radio', { name: 'Choose a time zone' }));
    await user.type(screen.getByLabelText('Search time zones'), 'atlantis');
    expect(screen.getByText('No time zone matches your search.')).toBeInTheDocument();
  });

  it('opens on the chosen zone and goes back to the device zone with Automatic', async () => {
    const user = userEvent.setup();
    const store = open('America/New_York');
    expect(screen.getByRole('radio', { name: 'Choose a time zone' })).toBeChecked();
    expect(screen.getByRole('radio', { name: /America\/New_York/ })).toBeChecked();
    // The list shows 50 zones at a time, the chosen one among them.
    expect(within(screen.getByRole('list', { name: 'Time zones' })).getAllByRole('radio')).toHaveLength(50);
    expect(screen.getByTestId('zones-more')).toHaveTextContent(/^Showing 50 of \d{3} time zones\. Type to narrow the search\.$/);
    expect(screen.getByTestId('format-date-time')).toHaveTextContent('Nov 21, 2026 · 09:07');
    await user.click(screen.getByRole('radio', { name: /^Automatic/ }));
    expect(store.getState().ui.timeZone).toBeNull();
    await waitFor(() => expect(screen.getByTestId('format-date-time')).toHaveTextContent('Nov 21, 2026 · 15:07'));
    expect(formatDateTime('2026-11-21T20:30:00Z')).toBe('Nov 21, 2026 · 21:30');
  });

  it('treats a stored zone this browser does not know as automatic', () => {
    const { store, stop } = makeAccountStore(null);
    stopZone = stop;
    store.dispatch(timeZoneChosen('Mars/Olympus_Mons'));
    renderAt(store, [{ path: '/date-and-time', element: <DateAndTimePage /> }], '/date-and-time');
    expect(screen.getByRole('radio', { name: /^Automatic/ })).toBeChecked();
    expect(screen.getByTestId('shown-in')).toHaveTextContent('Dates are shown in Europe/Berlin.');
  });
});
