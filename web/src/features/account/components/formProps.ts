//! What the account screen gives each edit form.

export interface EditFormProps {
  /** The change is made: close and say so. */
  onDone: (message: string) => void;
}

/** The forms of the sensitive values (username, e-mail, phone) also get the password token. */
export interface SensitiveFormProps extends EditFormProps {
  token: string;
  /** The server refused the token (it ran out): ask for the password again, saying why. */
  onTokenRefused: (message: string) => void;
}
