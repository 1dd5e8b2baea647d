//! The phone input (spec §5): a country calling code from the known list, and a national number
//! that takes digits only (e, E, +, - and paste are blocked), passed on after a 500 ms debounce.
//! A code several countries share shows its main country (+1: United States) unless the user
//! chose another of them.
import { useEffect, useId, useRef, useState } from 'react';
import { COUNTRIES, dialOptionValue } from '../lib/countries/countries';

export const PHONE_DEBOUNCE_MS = 500;
const BLOCKED_KEYS = new Set(['e', 'E', '+', '-']);

interface Props {
  countryCode: string;
  onCountryCodeChange: (code: string) => void;
  onNumberChange: (digits: string) => void;
  countryError?: string;
  numberError?: string;
}

export function PhoneInput({ countryCode, onCountryCodeChange, onNumberChange, countryError, numberError }: Props) {
  const id = useId();
  const [digits, setDigits] = useState('');
  const [chosen, setChosen] = useState<string>();
  const chosenCountry = COUNTRIES.find((c) => c.id === chosen);
  const selected = chosenCountry?.dialCode === countryCode ? dialOptionValue(chosenCountry) : countryCode;
  const latest = useRef(onNumberChange);
  useEffect(() => {
    latest.current = onNumberChange;
  });

  useEffect(() => {
    const timer = setTimeout(() => latest.current(digits), PHONE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [digits]);

  const error = countryError ?? numberError;
  return (
    <div className={`field phone${error ? ' field--error' : ''}`}>
      <label htmlFor={`${id}-number`}>Phone number</label>
      <div className="phone__row">
        <select
          aria-label="Country code"
          value={selected}
          onChange={(e) => {
            const country = COUNTRIES.find((c) => dialOptionValue(c) === e.target.value);
            if (!country) return;
            setChosen(country.id);
            onCountryCodeChange(country.dialCode);
          }}
        >
          {COUNTRIES.map((c) => (
            <option key={c.id} value={dialOptionValue(c)}>
              {c.name} ({c.dialCode})
            </option>
          ))}
        </select>
        <input
          id={`${id}-number`}
          type="number"
          inputMode="numeric"
          value={digits}
          aria-invalid={Boolean(error)}
          onKeyDown={(e) => {
            if (BLOCKED_KEYS.has(e.key)) e.preventDefault();
          }}
          onPaste={(e) => e.preventDefault()}
          // Leaving the field passes the number on at once (e.g. straight to the submit button).
          onBlur={() => latest.current(digits)}
          onChange={(e) => setDigits(e.target.value.replace(/\D/g, ''))}
        />
      </div>
      {error && <span className="field__error">{error}</span>}
    </div>
  );
}
