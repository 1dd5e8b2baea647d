//! `/events-history`: what happened on the account, newest first (GET action-logs/history/) — each
//! event's description, date and time, IP address and device — filtered by action and by a date
//! range, 20 at a time with 'Load more'.
import { useId, useState } from 'react';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import type { ActionLog } from '../../../lib/api/types';
import { formatDateTime } from '../../../lib/format/format';
import { useHistoryInfiniteQuery } from '../api/accountApi';
import {
  ACTION_LABELS,
  describeDevice,
  HISTORY_ACTIONS,
  NO_FILTERS,
  rangeError,
  type HistoryAction,
  type HistoryFilters,
} from '../model/history';
import { SETTINGS } from '../paths';
import { BackControl } from '../../../components/BackControl';
import '../account.css';

const isAction = (value: string): value is HistoryAction => value in ACTION_LABELS;

function EventRow({ event }: { event: ActionLog }) {
  // A known action reads as the filter names it; the server's description covers the others.
  const label = isAction(event.action) ? ACTION_LABELS[event.action] : event.description || event.action;
  return (
    <li className="account-event">
      <span className="account-event__title">{label}</span>
      <time className="account-event__meta" dateTime={event.createdAt}>
        {formatDateTime(event.createdAt)}
      </time>
      <span className="account-event__meta" title={event.userAgent ?? undefined}>
        IP {event.ipAddress || 'unknown'} · {describeDevice(event.userAgent)}
      </span>
    </li>
  );
}

export function EventsHistoryPage() {
  const actionId = useId();
  const [filters, setFilters] = useState<HistoryFilters>(NO_FILTERS);
  const invalid = rangeError(filters);
  const filtered = filters.action !== '' || filters.dateFrom !== '' || filters.dateTo !== '';
  const history = useHistoryInfiniteQuery(filters, { skip: Boolean(invalid), refetchOnMountOrArgChange: true });
  // The pages of these filters only: the previous filters' events are not shown while these load.
  const pages = history.currentData?.pages ?? [];
  const events = pages.flatMap((page) => page.results);
  const total = pages.at(-1)?.count ?? 0;
  const set = (change: Partial<HistoryFilters>) => setFilters((current) => ({ ...current, ...change }));

  let body;
  if (invalid) body = null;
  else if (history.isError && events.length === 0) {
    body = (
      <>
        <p>The events could not be loaded.</p>
        <PrimaryButton onClick={() => void history.refetch()}>Try again</PrimaryButton>
      </>
    );
  } else if (!history.currentData) {
    body = <p className="muted">Loading…</p>;
  } else if (events.length === 0) {
    body = <p>{filtered ? 'No events match these filters.' : 'No events yet.'}</p>;
  } else {
    body = (
      <>
        <ul className="account-events" aria-label="Events">
          {events.map((event) => (
            <EventRow key={event.id} event={event} />
          ))}
        </ul>
        <p className="muted" data-testid="events-count">
          {events.length} of {total} events
        </p>
        {history.hasNextPage && (
          <PrimaryButton variant="secondary" onClick={() => void history.fetchNextPage()} loading={history.isFetchingNextPage}>
            Load more
          </PrimaryButton>
        )}
      </>
    );
  }

  return (
    <main className="page account">
      <BackControl to={SETTINGS} label="Settings" />
      <h1>Events History</h1>
      <div className="account-filters" role="group" aria-label="Filters">
        <div className="field">
          <label htmlFor={actionId}>Action</label>
          <select id={actionId} value={filters.action} onChange={(e) => set({ action: isAction(e.target.value) ? e.target.value : '' })}>
            <option value="">All actions</option>
            {HISTORY_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {ACTION_LABELS[action]}
              </option>
            ))}
          </select>
        </div>
        <TextField label="From" type="date" value={filters.dateFrom} onChange={(e) => set({ dateFrom: e.target.value })} />
        <TextField label="To" type="date" value={filters.dateTo} onChange={(e) => set({ dateTo: e.target.value })} error={invalid} />
      </div>
      {filtered && (
        <button type="button" className="link account-clear" onClick={() => setFilters(NO_FILTERS)}>
          Clear filters
        </button>
      )}
      {body}
    </main>
  );
}
