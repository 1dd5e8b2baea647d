//! The conversation of a share, for its owner (signed in) and for a recipient (with the folder
//! token): the messages oldest first, each with who wrote it (the owner's name, a recipient's
//! masked address, or 'You') and when, and a box to write in. Messages are plain text, shown as
//! text. A message on its way says so; one that failed says why and offers 'Retry' (the same
//! message, never a second one). A revoked share's conversation is read-only.
import { useId, useState, type FormEvent } from 'react';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { errorStatus, firstErrorMessage } from '../../../lib/api/errors';
import { formatDateTime } from '../../../lib/format/format';
import { draftError, LOAD_FAILED, MAX_MESSAGE, useChat } from '../model/useChat';
import '../sharing.css';

export const READ_ONLY = 'This share was revoked. Its conversation can be read but not added to.';
export const NOT_AVAILABLE = 'This conversation is not available.';

interface Props {
  sharingId: string;
  /** A recipient's folder token; without it, the signed-in owner. */
  token?: string;
  /** The section's heading. */
  title?: string;
}

export function ChatPanel({ sharingId, token, title = 'Messages' }: Props) {
  const titleId = useId();
  const fieldId = useId();
  const errorId = useId();
  const chat = useChat(sharingId, token);
  const [draft, setDraft] = useState('');
  const [touched, setTouched] = useState(false);
  const length = [...draft].length;
  // Too long shows at once; blank only once the user tried to send or left the box.
  const error = touched || length > MAX_MESSAGE ? draftError(draft) : null;
  // Not found (another's, or gone): nothing to retry and nothing to write to.
  const missing = errorStatus(chat.loadError) === 404;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (draftError(draft)) return;
    const content = draft;
    // The box empties at once; a failed send stays in the list with 'Retry'.
    setDraft('');
    setTouched(false);
    await chat.send(content);
  };

  return (
    <section className="card chat" aria-labelledby={titleId}>
      <h2 id={titleId} className="sharing-subtitle">
        {title}
      </h2>
      {chat.folderName && <p className="muted chat__about">About {chat.folderName}</p>}
      {chat.loading && <p className="muted">Loading…</p>}
      {missing && <p role="alert">{NOT_AVAILABLE}</p>}
      {chat.loadError != null && !missing && (
        <div className="sharing-failure" role="alert">
          <p>{firstErrorMessage(chat.loadError, LOAD_FAILED)}</p>
          <PrimaryButton variant="secondary" onClick={() => void chat.refresh()}>
            Try again
          </PrimaryButton>
        </div>
      )}
      {!chat.loading && chat.messages.length === 0 && chat.outgoing.length === 0 && chat.loadError == null && (
        <p className="muted">No messages yet.</p>
      )}
      <ol className="chat__messages" aria-label={`${title} of this share`}>
        {chat.messages.map((m) => (
          <li key={m.seq} className={`chat__message${m.mine ? ' chat__message--mine' : ''}`} data-testid="chat-message">
            <span className="chat__meta">
              <span className="chat__author">{m.mine ? 'You' : m.authorName}</span>
              {m.createdAt && (
                <time className="muted" dateTime={m.createdAt}>
                  {formatDateTime(m.createdAt)}
                </time>
              )}
            </span>
            <p className="chat__content">{m.content}</p>
          </li>
        ))}
        {chat.outgoing.map((o) => (
          <li key={o.clientMessageId} className="chat__message chat__message--mine chat__message--outgoing" data-testid="chat-outgoing">
            <span className="chat__meta">
              <span className="chat__author">You</span>
              <span className="muted" role="status">
                {o.state === 'sending' ? 'Sending…' : o.error ? `Not sent: ${o.error}` : 'Not sent.'}
              </span>
            </span>
            <p className="chat__content">{o.content}</p>
            {o.state === 'failed' && (
              <span className="chat__actions">
                <PrimaryButton variant="secondary" onClick={() => void chat.send(o.content, o.clientMessageId)}>
                  Retry
                </PrimaryButton>
                <PrimaryButton variant="secondary" onClick={() => chat.discard(o.clientMessageId)}>
                  Discard
                </PrimaryButton>
              </span>
            )}
          </li>
        ))}
      </ol>
      {missing ? null : chat.readOnly ? (
        <p className="muted" role="note">
          {READ_ONLY}
        </p>
      ) : (
        <form className="chat__form" onSubmit={(e) => void submit(e)} noValidate>
          <label htmlFor={fieldId}>Message</label>
          <textarea
            id={fieldId}
            className="chat__input"
            rows={3}
            value={draft}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(e) => setDraft(e.target.value)}
            onBlur={() => draft && setTouched(true)}
          />
          <span className={`chat__count${length > MAX_MESSAGE ? ' chat__count--over' : ' muted'}`} aria-live="polite">
            {length}/{MAX_MESSAGE}
          </span>
          {error && (
            <p id={errorId} className="field__error" role="alert">
              {error}
            </p>
          )}
          <PrimaryButton type="submit">Send</PrimaryButton>
        </form>
      )}
    </section>
  );
}
