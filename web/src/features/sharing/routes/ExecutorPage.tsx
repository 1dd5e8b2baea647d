//! `/futuregram/executor/accept/{token}` and `/futuregram/executor/decline/{token}` (spec §2: one
//! screen with an action of accepted or declined, open to anyone holding the link). The link
//! carries the token and the executor's e-mail, which fills the address field; once accepted, the
//! same screen lets them
//! ask for the release of a futuregram without a date, or stop a dated one in its veto window.
import { useState, type FormEvent } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { errorStatus, fieldErrors, firstErrorMessage, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { START } from '../../../lib/routing/accessTable';
import { useRespondAsExecutorMutation } from '../api/sharingApi';
import type { ExecutorAction, ExecutorStanding } from '../api/types';
import { formatDateTime } from '../../../lib/format/format';
import '../futuregram.css';

export const EXECUTOR_TEXT = {
  title: 'Futuregram executor',
  acceptIntro: 'You were asked to be an executor of a futuregram: files someone shares later, by a date or when their executors ask.',
  declineIntro: 'You were asked to be an executor of a futuregram. If you do not want to, decline here and the owner will be told.',
  emailLabel: 'Your e-mail address',
  emailHint: 'The address the invitation was sent to.',
  accept: 'Accept',
  decline: 'Decline',
  notFound: 'This link is no longer valid.',
  requestRelease: 'Ask for the release',
  veto: 'Stop the release',
  vetoConfirm: 'Stop this futuregram? It will not be released, and this cannot be undone.',
  releaseConfirm: 'Ask for the release? The owner is told and can cancel it during the waiting period.',
} as const;

function standingText(s: ExecutorStanding): string {
  const whose = `${s.ownerName}'s futuregram of ${s.folderName}`;
  if (s.futuregramState === 'released') return `${whose} was released.`;
  if (s.futuregramState === 'vetoed') return `${whose} was stopped. It will not be released.`;
  if (s.state === 'declined') return `You declined to be an executor of ${whose}.`;
  if (s.state === 'invited') return `You have not answered yet.`;
  if (s.futuregramState === 'waiting') return `You accepted. The release of ${whose} was asked for: it happens on ${formatDateTime(s.dueAt ?? '')} unless the owner cancels it.`;
  if (s.releaseAt) {
    const veto = s.canVeto ? ' You can stop it now.' : s.dueAt ? ` You can stop it from ${formatDateTime(s.dueAt)}.` : '';
    return `You accepted. ${whose} will be released on ${formatDateTime(s.releaseAt ?? '')}.${veto}`;
  }
  return `You accepted. ${whose} has no release date: you can ask for its release.`;
}

export function ExecutorPage() {
  const { action = '', token = '' } = useParams();
  const declining = action === 'decline';
  const [params] = useSearchParams();
  const [email, setEmail] = useState(() => params.get('email') ?? '');
  const [standing, setStanding] = useState<ExecutorStanding | null>(null);
  const [confirm, setConfirm] = useState<ExecutorAction | null>(null);
  const [respond, { isLoading, error }] = useRespondAsExecutorMutation();
  const [pending, setPending] = useState<ExecutorAction | null>(null);

  // Any other action is an unknown path, which goes to the start screen.
  if (action !== 'accept' && action !== 'decline') return <Navigate to={START} replace />;

  const send = async (what: ExecutorAction) => {
    setPending(what);
    const result = await respond({ token, email: email.trim(), action: what });
    setPending(null);
    if ('data' in result && result.data) setStanding(result.data);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send(declining ? 'declined' : 'accepted');
  };

  const status = errorStatus(error);
  const fields = fieldErrors(error);
  const message =
    error && !fields.email
      ? status === 404
        ? EXECUTOR_TEXT.notFound
        : (status ?? 0) >= 500
          ? SERVER_ERROR_MESSAGE
          : firstErrorMessage(error, SERVER_ERROR_MESSAGE)
      : null;

  return (
    <main className="page futuregram">
      <h1>{EXECUTOR_TEXT.title}</h1>
      {!standing ? (
        <form onSubmit={submit} noValidate>
          <p>{declining ? EXECUTOR_TEXT.declineIntro : EXECUTOR_TEXT.acceptIntro}</p>
          <TextField
            label={EXECUTOR_TEXT.emailLabel}
            type="email"
            autoComplete="email"
            value={email}
            maxLength={150}
            onChange={(e) => setEmail(e.target.value)}
            error={fields.email}
          />
          <p className="muted">{EXECUTOR_TEXT.emailHint}</p>
          {message && <p role="alert">{message}</p>}
          <PrimaryButton type="submit" variant={declining ? 'red' : 'primary'} loading={isLoading} disabled={!email.trim()}>
            {declining ? EXECUTOR_TEXT.decline : EXECUTOR_TEXT.accept}
          </PrimaryButton>
        </form>
      ) : (
        <section aria-label="Your answer">
          <p role="status" data-testid="executor-standing" data-state={standing.state}>
            {standingText(standing)}
          </p>
          {message && <p role="alert">{message}</p>}
          {standing.canRequestRelease && (
            <PrimaryButton loading={pending === 'release'} onClick={() => setConfirm('release')}>
              {EXECUTOR_TEXT.requestRelease}
            </PrimaryButton>
          )}
          {standing.canVeto && (
            <PrimaryButton variant="red" loading={pending === 'veto'} onClick={() => setConfirm('veto')}>
              {EXECUTOR_TEXT.veto}
            </PrimaryButton>
          )}
          {standing.futuregramState !== 'released' && standing.futuregramState !== 'vetoed' && (
            <PrimaryButton
              variant="secondary"
              loading={pending === 'accepted' || pending === 'declined'}
              onClick={() => void send(standing.state === 'accepted' ? 'declined' : 'accepted')}
            >
              {standing.state === 'accepted' ? 'Decline instead' : 'Accept instead'}
            </PrimaryButton>
          )}
        </section>
      )}
      <ConfirmDialog
        isOpen={confirm !== null}
        title={confirm === 'veto' ? EXECUTOR_TEXT.veto : EXECUTOR_TEXT.requestRelease}
        subTitle={confirm === 'veto' ? EXECUTOR_TEXT.vetoConfirm : EXECUTOR_TEXT.releaseConfirm}
        onClose={() => setConfirm(null)}
        buttons={[
          { text: 'Cancel', onClick: () => setConfirm(null) },
          {
            text: confirm === 'veto' ? EXECUTOR_TEXT.veto : EXECUTOR_TEXT.requestRelease,
            isHighlighted: true,
            onClick: () => {
              const what = confirm;
              setConfirm(null);
              if (what) void send(what);
            },
          },
        ]}
      />
    </main>
  );
}
