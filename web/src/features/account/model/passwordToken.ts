//! The password token of the sensitive changes (contract "Password verification"): it is valid for
//! 10 minutes and reusable by this user, so the account screen keeps it and asks for the password
//! again only once it has run out (or the server refused it).
import { useMemo, useRef } from 'react';
import type { PasswordToken } from '../../../lib/api/types';

/** The contract's lifetime, used when the answer does not say. */
export const PASSWORD_TOKEN_TTL_SECONDS = 600;
/** Not sent in its last seconds: the request could reach the server after the token ran out. */
export const PASSWORD_TOKEN_MARGIN_MS = 15_000;

export interface HeldToken {
  value: string;
  usableUntil: number;
}

export function holdToken(token: PasswordToken, now: number): HeldToken {
  const seconds = token.expiresInSeconds > 0 ? token.expiresInSeconds : PASSWORD_TOKEN_TTL_SECONDS;
  return { value: token.passwordToken, usableUntil: now + seconds * 1000 - PASSWORD_TOKEN_MARGIN_MS };
}

/** The token while it is still usable at `now`. */
export function usableToken(held: HeldToken | null, now: number): string | undefined {
  return held && now < held.usableUntil ? held.value : undefined;
}

export interface PasswordTokenStore {
  /** The held token if still usable now. */
  current: () => string | undefined;
  remember: (token: PasswordToken) => void;
  forget: () => void;
}

/** The token held by a screen (it is never rendered, so a ref: holding it re-renders nothing). */
export function usePasswordToken(): PasswordTokenStore {
  const held = useRef<HeldToken | null>(null);
  return useMemo(
    () => ({
      current: () => usableToken(held.current, Date.now()),
      remember: (token: PasswordToken) => {
        held.current = holdToken(token, Date.now());
      },
      forget: () => {
        held.current = null;
      },
    }),
    [],
  );
}
