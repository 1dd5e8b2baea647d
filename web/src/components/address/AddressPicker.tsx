//! The address picker (spec §2): a full-screen search 'Type your Address' listing suggestions as
//! city plus country, 'No Result Found / Try adjusting your search words.' when nothing matches.
//! The search runs 1000 ms after the last keystroke (spec §5 "Search input"), input max 200.
import { useEffect, useId, useState } from 'react';
import { placesProvider, type PlaceDetails, type PlaceSuggestion, type PlacesProvider } from '../../lib/places';
import { BackControl } from '../BackControl';
import { useEscape } from '../useEscape';
import './address.css';

export const SEARCH_DEBOUNCE_MS = 1000;
export const SEARCH_MAX_LENGTH = 200;

interface Props {
  onSelect: (details: PlaceDetails, suggestion: PlaceSuggestion) => void;
  onClose: () => void;
  provider?: PlacesProvider;
  debounceMs?: number;
}

type Search = { state: 'idle' } | { state: 'searching' } | { state: 'done'; query: string; results: PlaceSuggestion[] } | { state: 'failed' };

export function AddressPicker({ onSelect, onClose, provider, debounceMs = SEARCH_DEBOUNCE_MS }: Props) {
  useEscape(onClose);
  const id = useId();
  const [places] = useState(() => provider ?? placesProvider());
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState<Search>({ state: 'idle' });
  const [choosing, setChoosing] = useState(false);

  useEffect(() => {
    const text = query.trim();
    if (!text) return undefined;
    let current = true;
    const timer = setTimeout(() => {
      setSearch({ state: 'searching' });
      places.suggest(text).then(
        (results) => current && setSearch({ state: 'done', query: text, results }),
        () => current && setSearch({ state: 'failed' }),
      );
    }, debounceMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query, places, debounceMs]);

  const choose = async (suggestion: PlaceSuggestion) => {
    setChoosing(true);
    try {
      onSelect(await places.details(suggestion.id), suggestion);
    } finally {
      setChoosing(false);
    }
  };

  const results = query.trim() && search.state === 'done' ? search.results : [];
  return (
    <div className="fullscreen address-picker" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`}>
      <header className="fullscreen__bar">
        <BackControl onClick={onClose} />
        <h2 id={`${id}-title`} className="fullscreen__title">
          Type your Address
        </h2>
      </header>
      <div className="address-picker__search">
        <input
          type="search"
          aria-label="Type your Address"
          placeholder="Type your Address"
          autoFocus
          maxLength={SEARCH_MAX_LENGTH}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            if (!e.target.value.trim()) setSearch({ state: 'idle' });
          }}
        />
      </div>
      {search.state === 'searching' && <p className="muted address-picker__status">Searching…</p>}
      {search.state === 'failed' && <p className="muted address-picker__status">The places could not be loaded.</p>}
      {query.trim() && search.state === 'done' && results.length === 0 && (
        <div className="address-picker__empty" role="status">
          <p className="address-picker__empty-title">No Result Found</p>
          <p className="muted">Try adjusting your search words.</p>
        </div>
      )}
      {results.length > 0 && (
        <ul className="address-picker__list" aria-label="Suggestions">
          {results.map((s) => (
            <li key={s.id}>
              <button type="button" className="address-picker__item" disabled={choosing} onClick={() => void choose(s)}>
                <span className="address-picker__label">{s.label}</span>
                {s.region && <span className="muted address-picker__region">{s.region}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
