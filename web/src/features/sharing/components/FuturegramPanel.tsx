//! The futuregrams of a capture situation, on `/evidence?situation=...` (docs/decisions.md
//! "Futuregram"): each one's release, recipients and executors with their answers (a declined
//! executor shows as declined), cancelling a release executors asked for, and scheduling a new
//! one of the situation's folder: copy type, recipients, executors, a release date or release by
//! the executors, paid like a share. A date past the folder's storage date offers the extension.
import { useState } from 'react';
import { Link } from 'react-router';
import { formatMoney } from '../../../lib/format/money';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { errorStatus, fieldErrors, firstErrorMessage, isDefinitive, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { useAttempt } from '../../payments';
import { useSharingPriceQuery } from '../../../lib/api/payments';
import { recipientInput, type PayWith } from '../../../lib/api/sharing';
import { MAX_RECIPIENTS, recipientText, sameRecipient, type CopyType, type DraftRecipient } from '../../../lib/sharing/draft';
import { email as emailRule } from '../../../lib/validation/rules';
import {
  useCancelFuturegramReleaseMutation,
  useCreateFuturegramMutation,
  useSituationFuturegramsQuery,
} from '../api/sharingApi';
import type { Futuregram } from '../api/types';
import { RecipientForm } from './RecipientForm';
import { COPY_TYPE_LABELS, MESSAGES } from '../model/labels';
import { formatDateTime } from '../../../lib/format/format';
import { EXECUTOR_STATE_LABELS, FUTUREGRAM_STATE_LABELS } from '../model/futuregram';
import '../sharing.css';
import '../futuregram.css';

const MAX_EXECUTORS = 10;

function releaseText(f: Futuregram): string {
  if (f.state === 'released') return `Released on ${formatDateTime(f.releasedAt ?? '')}.`;
  if (f.state === 'vetoed') return 'Stopped by an executor: it will not be released.';
  if (f.state === 'waiting') return `An executor asked for the release: it happens on ${formatDateTime(f.dueAt ?? '')} unless you cancel it.`;
  if (f.releaseAt) return `To be released on ${formatDateTime(f.releaseAt)}.`;
  return 'To be released when its executors ask for it.';
}

function FuturegramCard({ futuregram: f }: { futuregram: Futuregram }) {
  const [cancel, cancelled] = useCancelFuturegramReleaseMutation();
  return (
    <li className="card futuregram-card" data-testid="futuregram" data-state={f.state}>
      <strong>
        Futuregram · {FUTUREGRAM_STATE_LABELS[f.state]}
      </strong>
      <span>{releaseText(f)}</span>
      <span className="muted">
        {COPY_TYPE_LABELS[f.copyType]} of {f.items.length === 1 ? '1 file' : `${f.items.length} files`} from {f.folderName}
      </span>
      <span>To: {f.recipients.map((r) => r.sentTo).join(', ')}</span>
      {f.executors.length > 0 && (
        <ul aria-label="Executors">
          {f.executors.map((e) => (
            <li key={e.id} data-testid="futuregram-executor" data-state={e.state}>
              {e.email} — {EXECUTOR_STATE_LABELS[e.state]}
              {e.releaseRequested && ' (asked for the release)'}
              {e.vetoed && ' (stopped it)'}
            </li>
          ))}
        </ul>
      )}
      {f.state === 'waiting' && (
        <PrimaryButton variant="red" loading={cancelled.isLoading} onClick={() => void cancel({ shareId: f.shareId, situationId: f.situationId })}>
          Cancel the release
        </PrimaryButton>
      )}
      {cancelled.isError && <p role="alert">{firstErrorMessage(cancelled.error, SERVER_ERROR_MESSAGE)}</p>}
    </li>
  );
}

interface Props {
  situation: string;
  /** The situation's folder, once a file was uploaded to it. */
  folderId?: string;
}

export function FuturegramPanel({ situation, folderId }: Props) {
  const list = useSituationFuturegramsQuery(situation);
  const [open, setOpen] = useState(false);
  const futuregrams = list.data ?? [];
  return (
    <section className="futuregram futuregram-panel" aria-label="Futuregrams">
      <h2 className="capture__files-title">Futuregram</h2>
      {list.isError && <p className="muted">{SERVER_ERROR_MESSAGE}</p>}
      {futuregrams.length > 0 && (
        <ul className="upload-list" aria-label="Scheduled futuregrams">
          {futuregrams.map((f) => (
            <FuturegramCard key={f.shareId} futuregram={f} />
          ))}
        </ul>
      )}
      {!folderId ? (
        <p className="muted">Once a file is uploaded you can schedule it to be shared later.</p>
      ) : open ? (
        <FuturegramForm situation={situation} folderId={folderId} onDone={() => setOpen(false)} />
      ) : (
        <PrimaryButton variant="secondary" onClick={() => setOpen(true)}>
          Schedule a futuregram
        </PrimaryButton>
      )}
    </section>
  );
}

/** A `datetime-local` value (the device's time) as RFC 3339, or null. */
function toRfc3339(local: string): string | null {
  if (!local) return null;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

function FuturegramForm({ situation, folderId, onDone }: { situation: string; folderId: string; onDone: () => void }) {
  const [copyType, setCopyType] = useState<CopyType>('authenticated');
  const [recipients, setRecipients] = useState<DraftRecipient[]>([]);
  const [executors, setExecutors] = useState<string[]>([]);
  const [executor, setExecutor] = useState('');
  const [executorError, setExecutorError] = useState<string | undefined>();
  const [byDate, setByDate] = useState(true);
  const [releaseAt, setReleaseAt] = useState('');
  const [payWith, setPayWith] = useState<PayWith>('card');
  const [create, created] = useCreateFuturegramMutation();
  const price = useSharingPriceQuery({ copy_type: copyType, recipients: recipients.length }, { skip: recipients.length === 0 });

  const addRecipient = (recipient: DraftRecipient): string | null => {
    if (recipients.some((r) => sameRecipient(r, recipient))) return MESSAGES.duplicateRecipient;
    if (recipients.length >= MAX_RECIPIENTS) return MESSAGES.tooManyRecipients;
    setRecipients([...recipients, recipient]);
    return null;
  };

  const addExecutor = () => {
    const checked = emailRule.safeParse(executor);
    if (!checked.success) return setExecutorError(checked.error.issues[0]?.message);
    const email = checked.data.toLowerCase();
    if (executors.includes(email)) return setExecutorError('This executor is already on the list.');
    if (executors.length >= MAX_EXECUTORS) return setExecutorError('Choose at most 10 executors.');
    setExecutors([...executors, email]);
    setExecutor('');
    setExecutorError(undefined);
  };

  const at = byDate ? toRfc3339(releaseAt) : null;
  const body = {
    situation_id: situation,
    folder_id: folderId,
    copy_type: copyType,
    item_ids: [],
    recipients: recipients.map(recipientInput),
    executors: executors.map((email) => ({ email })),
    ...(at ? { release_at: at } : {}),
    pay_with: payWith,
  };
  // The same futuregram scheduled again (the form closed and opened again, or a reload) while the
  // first one's outcome is unknown re-sends its key: it is paid and scheduled once.
  const attempt = useAttempt(`futuregram ${JSON.stringify(body)}`);

  const submit = async () => {
    const result = await create({ idempotencyKey: attempt.key(), body });
    if ('data' in result && result.data) {
      attempt.settle();
      onDone();
    } else if ('error' in result && isDefinitive(result.error)) attempt.settle();
  };

  const fields = fieldErrors(created.error);
  const status = errorStatus(created.error);
  const releaseError = byDate && !releaseAt && created.isError ? 'Choose a release date and time.' : fields.release_at;
  const shortStorage = fields.release_at?.includes('storage date');
  const general =
    created.isError && Object.keys(fields).length === 0
      ? (status ?? 0) >= 500
        ? SERVER_ERROR_MESSAGE
        : firstErrorMessage(created.error, SERVER_ERROR_MESSAGE)
      : null;

  return (
    // Not a form of its own: the recipient form inside it is one.
    <section className="futuregram" aria-label="Schedule a futuregram">
      <p className="muted">The files of this capture are shared later: on a date, or when your executors ask. Until then nobody receives anything.</p>
      <fieldset>
        <legend>Type of copy</legend>
        {(['authenticated', 'unauthenticated'] as const).map((type) => (
          <label key={type}>
            <input type="radio" name="copy-type" checked={copyType === type} onChange={() => setCopyType(type)} />
            {COPY_TYPE_LABELS[type]}
          </label>
        ))}
      </fieldset>

      <h3>Recipients</h3>
      <RecipientForm onAdd={addRecipient} disabled={recipients.length >= MAX_RECIPIENTS} />
      <ul className="sharing-recipients" aria-label="Recipients">
        {recipients.map((r, index) => (
          <li key={recipientText(r)} className="sharing-recipient futuregram-chip">
            <span className="sharing-recipient__to">{recipientText(r)}</span>
            <button type="button" className="sharing-remove" aria-label={`Remove ${recipientText(r)}`} onClick={() => setRecipients(recipients.filter((_, i) => i !== index))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      {fields.recipients && <p role="alert" className="field__error">{fields.recipients}</p>}

      <h3>Executors</h3>
      <p className="muted">People you trust. They are asked by e-mail to accept; they can stop a dated release, or ask for one without a date.</p>
      <div className="futuregram-list">
        <TextField label="Executor's e-mail" type="email" value={executor} maxLength={150} onChange={(e) => setExecutor(e.target.value)} error={executorError} />
        <PrimaryButton variant="secondary" onClick={addExecutor}>
          Add
        </PrimaryButton>
      </div>
      <ul className="sharing-recipients" aria-label="Executors">
        {executors.map((email) => (
          <li key={email} className="sharing-recipient futuregram-chip">
            <span className="sharing-recipient__to">{email}</span>
            <button type="button" className="sharing-remove" aria-label={`Remove ${email}`} onClick={() => setExecutors(executors.filter((e) => e !== email))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      {fields.executors && <p role="alert" className="field__error">{fields.executors}</p>}

      <fieldset>
        <legend>Release</legend>
        <label>
          <input type="radio" name="release" checked={byDate} onChange={() => setByDate(true)} />
          On a date
        </label>
        <label>
          <input type="radio" name="release" checked={!byDate} onChange={() => setByDate(false)} />
          When my executors ask
        </label>
      </fieldset>
      {byDate && <TextField label="Release date and time" type="datetime-local" value={releaseAt} onChange={(e) => setReleaseAt(e.target.value)} error={releaseError} />}
      {shortStorage && (
        <Link className="link-block" to={`/extend-storage-date/${encodeURIComponent(folderId)}`}>
          Extend Storage Date
        </Link>
      )}

      <fieldset>
        <legend>Pay with</legend>
        <label>
          <input type="radio" name="pay-with" checked={payWith === 'card'} onChange={() => setPayWith('card')} />
          Default card{price.data && ` · ${formatMoney(price.data.total)}`}
        </label>
        <label>
          <input type="radio" name="pay-with" checked={payWith === 'wallet'} onChange={() => setPayWith('wallet')} />
          CreditCard Wallet{price.data && ` · ${formatMoney(price.data.walletTotal)}`}
        </label>
      </fieldset>
      {general && <p role="alert" className="field__error">{general}</p>}
      <PrimaryButton loading={created.isLoading} disabled={recipients.length === 0} onClick={() => void submit()}>
        Pay and Schedule
      </PrimaryButton>
      <PrimaryButton variant="secondary" onClick={onDone}>
        Cancel
      </PrimaryButton>
    </section>
  );
}
