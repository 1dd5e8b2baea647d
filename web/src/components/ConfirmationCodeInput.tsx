//! The confirmation code input (spec §3, §5): 6 digits shown as '999 999', a numeric keyboard
//! unless text is allowed, upper case; an error containing 'incorrect' highlights the field, and
//! the special message 'just_error' highlights it without text.
import { useId } from 'react';

export const JUST_ERROR = 'just_error';

/** '123456' -> '123 456'; keeps at most 6 characters of the allowed kind. */
export function formatCode(raw: string, allowText = false): string {
  const kept = (allowText ? raw.replace(/[^0-9a-z]/gi, '') : raw.replace(/\D/g, '')).toUpperCase().slice(0, 6);
  return kept.length > 3 ? `${kept.slice(0, 3)} ${kept.slice(3)}` : kept;
}

export function codeValue(formatted: string): string {
  return formatted.replace(/\s/g, '');
}

interface Props {
  value: string;
  onChange: (code: string) => void;
  error?: string;
  allowText?: boolean;
  label?: string;
}

export function ConfirmationCodeInput({ value, onChange, error, allowText = false, label = 'Confirmation code' }: Props) {
  const id = useId();
  const highlighted = Boolean(error && (error === JUST_ERROR || error.toLowerCase().includes('incorrect')));
  const text = error && error !== JUST_ERROR ? error : undefined;
  return (
    <div className={`field code-input${highlighted ? ' field--error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name="confirmationCode"
        value={formatCode(value, allowText)}
        onChange={(e) => onChange(codeValue(formatCode(e.target.value, allowText)))}
        inputMode={allowText ? 'text' : 'numeric'}
        autoComplete="one-time-code"
        placeholder="999 999"
        aria-invalid={highlighted}
        style={{ textTransform: 'uppercase' }}
      />
      {text && <span className="field__error">{text}</span>}
    </div>
  );
}
