//! The two steps of an e-mail or phone change (contract "Profile changes"): the new value with the
//! password token sends a code to it (202); the same with the code changes it (204). Field errors
//! of the value go back to the first step, code errors stay under the code, a refused password token
//! asks for the password again, anything else is the snackbar.
import { useState } from 'react';
import { useAppDispatch } from '../../../lib/store/hooks';
import type { CodeSent } from '../../../lib/api/types';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { classifyFailure } from '../model/failures';
import { CODE_RESENT, NOT_CHANGED } from '../model/messages';

/** The request field of code errors (contract "Recovery"). */
export const CODE_FIELD = 'confirmation_code';
const CODE = 'code';

type Result = { data: CodeSent | null; error?: undefined } | { data?: undefined; error: unknown };

interface Options<Body extends { code?: string | null }> {
  send: (body: Body) => PromiseLike<Result>;
  /** The request fields of the value, by their form field names. */
  valueFields: Record<string, string>;
  onValueError: (field: string, message: string) => void;
  onTokenRefused: (message: string) => void;
  onDone: () => void;
}

export function useCodeChange<Body extends { code?: string | null }>({
  send,
  valueFields,
  onValueError,
  onTokenRefused,
  onDone,
}: Options<Body>) {
  const dispatch = useAppDispatch();
  const [sent, setSent] = useState<{ body: Body; sentTo: string } | null>(null);
  const [codeError, setCodeError] = useState<string | undefined>();
  // One mutation serves all three calls: which one is running tells which button waits.
  const [busy, setBusy] = useState<'start' | 'confirm' | 'resend' | null>(null);
  const run = async (which: 'start' | 'confirm' | 'resend', body: Body) => {
    setBusy(which);
    try {
      return await send(body);
    } finally {
      setBusy(null);
    }
  };

  const fail = (error: unknown) => {
    const failure = classifyFailure(error, { ...valueFields, [CODE_FIELD]: CODE }, NOT_CHANGED);
    if (failure.kind === 'password-token') onTokenRefused(failure.message);
    else if (failure.kind === 'message') dispatch(showSnackbar({ message: failure.message, type: 'error' }));
    else if (failure.kind === 'fields') {
      const { [CODE]: code, ...values } = failure.fields;
      if (code) setCodeError(code);
      if (Object.keys(values).length > 0) {
        // The value itself was refused (taken meanwhile, say): back to where it is typed.
        setSent(null);
        for (const [field, message] of Object.entries(values)) onValueError(field, message);
      }
    }
  };

  /** Step one: send the code to the new value. */
  const start = async (body: Body, shownValue: string) => {
    const result = await run('start', body);
    if (result.error !== undefined) return fail(result.error);
    setCodeError(undefined);
    setSent({ body, sentTo: result.data?.sentTo || shownValue });
  };

  const confirm = async (code: string) => {
    if (!sent) return;
    const result = await run('confirm', { ...sent.body, code });
    if (result.error !== undefined) return fail(result.error);
    onDone();
  };

  const resend = async () => {
    if (!sent) return;
    const result = await run('resend', sent.body);
    if (result.error !== undefined) return fail(result.error);
    setCodeError(undefined);
    dispatch(showSnackbar({ message: CODE_RESENT, type: 'info' }));
  };

  return {
    sent,
    codeError,
    busy,
    start,
    confirm,
    resend,
    clearCodeError: () => setCodeError(undefined),
    back: () => setSent(null),
  };
}
