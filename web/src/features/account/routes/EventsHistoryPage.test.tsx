// /events-history: the events newest first as the server lists them (description, date and time in
// the chosen zone, IP, device), 'Load more', the query string of each filter, the date-range check
// and the empty states.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, queriesOf, renderAt, serve } from '../../../testing';
import { makeAccountStore } from '../testing/helpers';
import { EventsHistoryPage } from './EventsHistoryPage';

let stopZone = () => {};
afterEach(() => {
  stopZone();
  vi.unstubAllGlobals();
});

const PATH = 'action-logs/history/';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

const event = (n: number, overrides: Record<string, unknown> = {}) => ({
  id: `e${n}`,
  action: 'sign_in',
  description: 'Signed in',
  ip_address: '203.0.113.5',
  user_agent: ANDROID,
  created_at: `2026-11-21T14:${String(59 - n).padStart(2, '0')}:00Z`,
  ...overrides,
});

const page = (n: number, results: unknown[], count: number) => ({ count, page: n, page_size: 20, results });

/** Serves the history: `pages` by page number, whatever the filters. */
function serveHistory(pages: Record<number, unknown>) {
  return serve({
    [`GET ${PATH}`]: () => {
      const query = new URLSearchParams(queriesOf(PATH).at(-1));
      return pages[Number(query.get('page'))] ?? answer(404, { errors: [{ message: 'Not found.' }] });
    },
  });
}

function open(zone = 'UTC') {
  const { store, stop } = makeAccountStore(zone);
  stopZone = stop;
  renderAt(store, [{ path: '/events-history', element: <EventsHistoryPage /> }], '/events-history');
}

const rows = () =>
  within(screen.getByRole('list', { name: 'Events' }))
    .getAllByRole('listitem')
    .map((li) => Array.from(li.children).map((c) => c.textContent));

describe('events history', () => {
  it('lists the first 20 events with description, date and time, IP and device', async () => {
    serveHistory({
      1: page(1, [event(1), event(2, { action: 'sign_up', description: 'Account created', user_agent: 'curl/8.5.0', ip_address: '' })], 2),
    });
    open();
    await screen.findByRole('list', { name: 'Events' });
    expect(rows()).toEqual([
      ['Signed in', 'Nov 21, 2026 · 14:58', 'IP 203.0.113.5 · Chrome on Android'],
      ['Account created', 'Nov 21, 2026 · 14:57', 'IP unknown · curl/8.5.0'],
    ]);
    expect(queriesOf(PATH)).toEqual(['?page=1&page_size=20']);
    expect(screen.getByTestId('events-count')).toHaveTextContent('2 of 2 events');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('names an action in its row as the filter names it, whatever the description says', async () => {
    serveHistory({
      1: page(1, [event(1, { action: 'email_changed', description: 'Email changed' }), event(2, { action: 'future_action', description: 'Something new' })], 2),
    });
    open();
    await screen.findByRole('list', { name: 'Events' });
    expect(rows().map((row) => row[0])).toEqual(['E-mail changed', 'Something new']);
    expect(within(screen.getByLabelText('Action')).getByRole('option', { name: 'E-mail changed' })).toBeInTheDocument();
  });

  it('shows dates in the time zone chosen on Date and Time', async () => {
    serveHistory({ 1: page(1, [event(1)], 1) });
    open('Asia/Tokyo');
    await screen.findByRole('list', { name: 'Events' });
    expect(rows()[0]?.[1]).toBe('Nov 21, 2026 · 23:58');
  });

  it('loads the next page after the last one shown until all are there', async () => {
    const first = Array.from({ length: 20 }, (_, i) => event(i + 1));
    serveHistory({ 1: page(1, first, 21), 2: page(2, [event(30, { description: 'Failed sign-in', action: 'sign_in_failed' })], 21) });
    open();
    await screen.findByRole('list', { name: 'Events' });
    expect(rows()).toHaveLength(20);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(21));
    expect(rows()[20]?.[0]).toBe('Failed sign-in');
    expect(queriesOf(PATH)).toEqual(['?page=1&page_size=20', '?page=2&page_size=20']);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(screen.getByTestId('events-count')).toHaveTextContent('21 of 21 events');
  });

  it('offers every action of the contract by its name and asks for the chosen one', async () => {
    serveHistory({ 1: page(1, [event(1)], 1) });
    open();
    await screen.findByRole('list', { name: 'Events' });
    const select = screen.getByLabelText('Action');
    const options = within(select)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toHaveLength(22);
    expect(options.slice(0, 4)).toEqual(['All actions', 'Account created', 'Signed in', 'Failed sign-in']);
    await userEvent.selectOptions(select, 'Signed in');
    await waitFor(() => expect(queriesOf(PATH).at(-1)).toBe('?page=1&page_size=20&action=sign_in'));
  });

  it('sends the date range, both ends included, and refuses an end before the start', async () => {
    serveHistory({ 1: page(1, [event(1)], 1) });
    open();
    await screen.findByRole('list', { name: 'Events' });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    await waitFor(() => expect(queriesOf(PATH).at(-1)).toBe('?page=1&page_size=20&date_from=2026-11-01'));
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-21' } });
    await waitFor(() => expect(queriesOf(PATH).at(-1)).toBe('?page=1&page_size=20&date_from=2026-11-01&date_to=2026-11-21'));
    const asked = queriesOf(PATH).length;

    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-10-31' } });
    expect(await screen.findByText('The end date cannot be before the start date.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Events' })).not.toBeInTheDocument();
    expect(queriesOf(PATH)).toHaveLength(asked);
  });

  it('says when there are no events, and when none match the filters; Clear filters shows all again', async () => {
    serve({
      [`GET ${PATH}`]: page(1, [], 0),
    });
    open();
    expect(await screen.findByText('No events yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Action'), 'E-mail changed');
    expect(await screen.findByText('No events match these filters.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('No events yet.')).toBeInTheDocument();
    expect(screen.getByLabelText('Action')).toHaveValue('');
  });

  it('offers to try again when the events cannot be loaded', async () => {
    let fail = true;
    serve({ [`GET ${PATH}`]: () => (fail ? answer(400, { errors: [{ message: 'Bad request.' }] }) : page(1, [event(1)], 1)) });
    open();
    expect(await screen.findByText('The events could not be loaded.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('list', { name: 'Events' });
  });
});
