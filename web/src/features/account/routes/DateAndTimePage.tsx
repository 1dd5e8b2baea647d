//! `/date-and-time` (the spec names the screen only): the date formats the app uses (spec §9,
//! 'MMM D, YYYY' and 'MMM D, YYYY · HH:mm' on a 24-hour clock) with today's date as the example, and
//! the time zone dates are shown in — the device's own (automatic) or one chosen from the IANA
//! zones with a search. The choice is kept on this device (the persisted ui slice) and every date
//! formatter follows it.
import { useMemo, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../lib/store/hooks';
import { deviceTimeZone, formatDate, formatDateTime, isTimeZone } from '../../../lib/format/format';
import { timeZones } from '../../../lib/format/timeZone';
import { selectTimeZone, timeZoneChosen } from '../../../lib/ui/uiSlice';
import { matchTimeZones, shownZones, zoneOffset } from '../model/timeZones';
import { SETTINGS } from '../paths';
import { BackControl } from '../../../components/BackControl';
import '../account.css';

export function DateAndTimePage() {
  const dispatch = useAppDispatch();
  const stored = useAppSelector(selectTimeZone);
  // A stored zone this browser does not know is not used by the formatters either: show automatic.
  const chosen = stored && isTimeZone(stored) ? stored : null;
  const device = deviceTimeZone();
  const shownIn = chosen ?? device;
  const [now] = useState(() => new Date());
  const [choosing, setChoosing] = useState(chosen !== null);
  const [query, setQuery] = useState('');
  const zones = useMemo(() => timeZones(), []);
  const matches = useMemo(() => matchTimeZones(zones, query), [zones, query]);
  const shown = shownZones(matches, chosen);

  return (
    <main className="page account">
      <BackControl to={SETTINGS} label="Settings" />
      <h1>Date and Time</h1>
      <section className="account-section" aria-labelledby="date-formats">
        <h2 id="date-formats">Formats</h2>
        <dl className="account-formats">
          <div>
            <dt>Date</dt>
            <dd data-testid="format-date">{formatDate(now, shownIn)}</dd>
          </div>
          <div>
            <dt>Date and time</dt>
            <dd data-testid="format-date-time">{formatDateTime(now, shownIn)}</dd>
          </div>
          <div>
            <dt>Clock</dt>
            <dd>24-hour</dd>
          </div>
        </dl>
      </section>
      <section className="account-section" aria-labelledby="time-zone">
        <h2 id="time-zone">Time zone</h2>
        <p data-testid="shown-in">Dates are shown in {shownIn}.</p>
        <fieldset className="account-method account-method--column">
          <legend>Time zone setting</legend>
          <label className="account-method__option">
            <input
              type="radio"
              name="time-zone-mode"
              checked={!choosing}
              onChange={() => {
                setChoosing(false);
                dispatch(timeZoneChosen(null));
              }}
            />
            Automatic (this device: {device})
          </label>
          <label className="account-method__option">
            <input type="radio" name="time-zone-mode" checked={choosing} onChange={() => setChoosing(true)} />
            Choose a time zone
          </label>
        </fieldset>
        {choosing && (
          <>
            <div className="field">
              <label htmlFor="time-zone-search">Search time zones</label>
              <input
                id="time-zone-search"
                type="search"
                maxLength={200}
                placeholder="e.g. Berlin, New York, UTC"
                value={query}
                onChange={(e) => setQuery(e.target.value)}
              />
            </div>
            {matches.length === 0 ? (
              <p className="muted">No time zone matches your search.</p>
            ) : (
              <ul className="account-zones" aria-label="Time zones">
                {shown.map((zone) => (
                  <li key={zone}>
                    <label>
                      <input type="radio" name="time-zone" checked={zone === chosen} onChange={() => dispatch(timeZoneChosen(zone))} />
                      {zone} <span className="muted">{zoneOffset(zone, now)}</span>
                    </label>
                  </li>
                ))}
              </ul>
            )}
            {matches.length > shown.length && (
              <p className="muted" data-testid="zones-more">
                Showing {shown.length} of {matches.length} time zones. Type to narrow the search.
              </p>
            )}
          </>
        )}
      </section>
    </main>
  );
}
