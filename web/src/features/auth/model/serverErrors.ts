//! What the account forms (sign up, sign up as an organization, join an organization) do with a
//! failed call: a taken value or a server field error goes under its field; any other error is
//! the first server message in the snackbar; a 5xx is left to the base query's generic message.
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { AppDispatch } from '../../../lib/store/hooks';
import { errorStatus, fieldErrors, firstErrorMessage } from '../../../lib/api/errors';
import type { AvailabilityResponse } from '../../../lib/api/types';
import { showSnackbar } from '../../../lib/ui/uiSlice';

export const TAKEN = {
  email: 'A user with that email already exists.',
  username: 'A user with that username already exists.',
  phoneNumber: 'A user with that phone number already exists.',
} as const;

export const FALLBACK_MESSAGE = 'Something went wrong. Please try again.';

/** The values the availability check answered as taken, with their messages. */
export function takenFields(free: AvailabilityResponse): [keyof typeof TAKEN, string][] {
  const taken: [keyof typeof TAKEN, string][] = [];
  if (free.email === false) taken.push(['email', TAKEN.email]);
  if (free.username === false) taken.push(['username', TAKEN.username]);
  if (free.phoneNumber === false) taken.push(['phoneNumber', TAKEN.phoneNumber]);
  return taken;
}

/**
 * Places `error`'s field errors on the form fields `fields` names (request field -> form field);
 * without any placed, shows the first server message in the snackbar.
 */
export function showServerErrors<T extends FieldValues>(
  error: unknown,
  fields: Record<string, Path<T>>,
  setError: UseFormSetError<T>,
  dispatch: AppDispatch,
): void {
  const status = errorStatus(error);
  if (status !== undefined && status >= 500) return;
  let placed = false;
  for (const [field, message] of Object.entries(fieldErrors(error))) {
    const name = fields[field];
    if (name) {
      setError(name, { message }, { shouldFocus: !placed });
      placed = true;
    }
  }
  if (!placed) dispatch(showSnackbar({ message: firstErrorMessage(error, FALLBACK_MESSAGE), type: 'error' }));
}
