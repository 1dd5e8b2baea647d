//! Public verification (`/verify`, `/verify/:transactionNumber`, open to anyone): a recipient's
//! transaction number (typed in any case, kept upper case, like EVD-7K3Q-9XTM) shows what was
//! issued under it (sharing/verify/{number}/); a dropped or chosen file is hashed here with
//! SHA-256, streamed in chunks, and only the hash is sent (sharing/verify/file/), never the file:
//! a copy we issued is recognised byte for byte. An unknown number or file, or too many checks
//! (429), shows the service's message.
import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { errorStatus, firstErrorMessage, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { sha256Hex } from '../../../lib/hash/sha256';
import { MESSAGES as RULES } from '../../../lib/validation/rules';
import { useVerifyFileMutation, useVerifyTransactionQuery } from '../api/sharingApi';
import type { Verification } from '../api/types';
import { VerificationDetails } from '../components/VerificationDetails';
import { MESSAGES } from '../model/labels';
import { isTransactionNumber, normaliseTransactionNumber } from '../model/transactionNumber';
import { verifyUrl } from '../model/paths';
import '../sharing.css';

/** The service's words when it has no copy under a number or with a hash (sharing contract). */
export const NOT_ISSUED_NUMBER = 'No copy was issued with this transaction number.';
export const NOT_ISSUED_FILE = 'This file is not a copy we issued.';

function problem(error: unknown, fallback: string): string {
  const status = errorStatus(error);
  return status !== undefined && status >= 500 ? SERVER_ERROR_MESSAGE : firstErrorMessage(error, fallback);
}

export function VerifyPage() {
  const { transactionNumber: raw = '' } = useParams();
  const number = normaliseTransactionNumber(raw);
  return (
    <main className="page sharing">
      <h1>Verify a Copy</h1>
      <p className="muted">Check a copy you received: by its transaction number, or by the file itself.</p>
      <NumberCheck key={number} number={number} />
      <FileCheck />
    </main>
  );
}

function NumberCheck({ number }: { number: string }) {
  const navigate = useNavigate();
  const [typed, setTyped] = useState(number);
  const [error, setError] = useState<string | undefined>(number && !isTransactionNumber(number) ? MESSAGES.transactionNumberFormat : undefined);
  const valid = isTransactionNumber(number);
  const result = useVerifyTransactionQuery(number, { skip: !valid });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const normal = normaliseTransactionNumber(typed);
    setTyped(normal);
    if (!normal) setError(RULES.required);
    else if (!isTransactionNumber(normal)) setError(MESSAGES.transactionNumberFormat);
    else if (normal === number) void result.refetch();
    else void navigate(verifyUrl(normal));
  };

  return (
    <section className="sharing-verify" aria-label="By transaction number">
      <form onSubmit={submit} noValidate>
        <TextField
          label="Transaction Number"
          value={typed}
          placeholder="EVD-7K3Q-9XTM"
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          maxLength={40}
          onChange={(e) => {
            setTyped(e.target.value.toUpperCase());
            setError(undefined);
          }}
          error={error}
        />
        <PrimaryButton type="submit" loading={result.isFetching}>
          Verify
        </PrimaryButton>
      </form>
      {valid && result.isError && !result.isFetching && <InfoBanner type="error" title={problem(result.error, NOT_ISSUED_NUMBER)} />}
      {valid && result.data && !result.isError && <VerificationDetails verification={result.data} />}
    </section>
  );
}

type FileState =
  | { step: 'idle' }
  | { step: 'hashing'; name: string; percent: number }
  | { step: 'checking'; name: string }
  | { step: 'done'; name: string; verification: Verification }
  | { step: 'failed'; name: string; message: string };

function FileCheck() {
  const [verifyFile] = useVerifyFileMutation();
  const [state, setState] = useState<FileState>({ step: 'idle' });
  const [dragging, setDragging] = useState(false);
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  const check = async (file: File) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    const name = file.name;
    setState({ step: 'hashing', name, percent: 0 });
    let sha256: string;
    try {
      sha256 = await sha256Hex(file, {
        signal: controller.signal,
        onProgress: ({ loaded, total }) => setState({ step: 'hashing', name, percent: total ? Math.floor((loaded / total) * 100) : 100 }),
      });
    } catch {
      if (!controller.signal.aborted) setState({ step: 'failed', name, message: MESSAGES.fileNotRead });
      return;
    }
    if (controller.signal.aborted) return;
    setState({ step: 'checking', name });
    // Only the hash leaves the device.
    const result = await verifyFile({ sha256 });
    if (controller.signal.aborted) return;
    if (result.data) setState({ step: 'done', name, verification: result.data });
    else setState({ step: 'failed', name, message: problem(result.error, NOT_ISSUED_FILE) });
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file) void check(file);
  };

  return (
    <section className="sharing-verify" aria-label="By file">
      <div
        className={`sharing-drop${dragging ? ' sharing-drop--over' : ''}`}
        data-testid="verify-drop"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p>Drop a file here, or</p>
        <label className="btn btn--secondary sharing-drop__choose">
          Choose a File
          <input
            type="file"
            className="sharing-drop__input"
            aria-label="Choose a file to verify"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void check(file);
            }}
          />
        </label>
        <p className="muted">The file stays on this device: only its SHA-256 fingerprint is sent.</p>
      </div>
      {state.step === 'hashing' && (
        <p className="muted" role="status">
          Reading {state.name}… {state.percent}%
        </p>
      )}
      {state.step === 'checking' && (
        <p className="muted" role="status">
          Checking {state.name}…
        </p>
      )}
      {state.step === 'failed' && <InfoBanner type="error" title={state.message} />}
      {state.step === 'done' && <VerificationDetails verification={state.verification} matched={state.verification.matchedItemIndex ?? null} />}
    </section>
  );
}
