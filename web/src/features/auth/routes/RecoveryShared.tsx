//! What the recovery screens share: a radio choice list, and what a failed call without a form
//! field does (the first server message in the snackbar; a 5xx is left to the base query's generic
//! message). Field errors go through the account forms' `showServerErrors`.
import type { AppDispatch } from '../../../lib/store/hooks';
import { errorStatus, firstErrorMessage } from '../../../lib/api/errors';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { FALLBACK_MESSAGE } from '../model/serverErrors';
import './Recovery.css';

interface Choice<T extends string> {
  value: T;
  label: string;
}

interface ChoiceListProps<T extends string> {
  legend: string;
  name: string;
  options: Choice<T>[];
  value: T;
  onChange: (value: T) => void;
}

export function ChoiceList<T extends string>({ legend, name, options, value, onChange }: ChoiceListProps<T>) {
  return (
    <fieldset className="recovery__choices">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className={`recovery__choice${option.value === value ? ' recovery__choice--selected' : ''}`}>
          <input type="radio" name={name} value={option.value} checked={option.value === value} onChange={() => onChange(option.value)} />
          <span>{option.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** True when `error` was a 5xx answer, whose message the base query already showed. */
export const isServerFailure = (error: unknown) => (errorStatus(error) ?? 0) >= 500;

/**
 * Shows the first server message of `error` in the snackbar: nothing for a 5xx (the base query
 * showed the generic message), 'The network connection is poor or was lost.' when no answer came.
 */
export function reportError(dispatch: AppDispatch, error: unknown): void {
  if (isServerFailure(error)) return;
  dispatch(showSnackbar({ message: firstErrorMessage(error, FALLBACK_MESSAGE), type: 'error' }));
}
