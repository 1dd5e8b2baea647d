//! What a failed account call means for the screen: a 5xx was already reported by the base query
//! (spec §8); a refused password token means asking for the password again; field errors the form
//! shows go under their fields; anything else is the first server message, or the screen's own.
import { errorStatus, fieldErrors, firstErrorMessage } from '../../../lib/api/errors';

/** The request field of an expired or missing password token (contract "Profile changes"). */
export const PASSWORD_TOKEN_FIELD = 'password_token';

export type Failure =
  | { kind: 'reported' }
  | { kind: 'password-token'; message: string }
  | { kind: 'fields'; fields: Record<string, string> }
  | { kind: 'message'; message: string };


/**
 * `fieldNames` maps the request's field names to the form's (a request field that is an object,
 * like `new_phone_number`, also takes the errors of its parts, `new_phone_number.national_number`).
 */
export function classifyFailure(error: unknown, fieldNames: Record<string, string>, fallback: string): Failure {
  const status = errorStatus(error);
  if (status !== undefined && status >= 500) return { kind: 'reported' };
  const byField = fieldErrors(error);
  if (byField[PASSWORD_TOKEN_FIELD]) return { kind: 'password-token', message: byField[PASSWORD_TOKEN_FIELD] };
  const fields: Record<string, string> = {};
  for (const [field, message] of Object.entries(byField)) {
    const name = fieldNames[field] ?? fieldNames[field.split('.', 1)[0] ?? field];
    if (name && !(name in fields)) fields[name] = message;
  }
  if (Object.keys(fields).length > 0) return { kind: 'fields', fields };
  return { kind: 'message', message: firstErrorMessage(error, fallback) };
}
