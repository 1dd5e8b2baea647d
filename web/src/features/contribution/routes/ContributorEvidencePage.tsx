//! `/organization-sharing/evidence/:folderId/:stepId` (public-only): an invited contributor
//! captures (or chooses) files for one step of an organization folder: the step's name and
//! instructions, the capture modes its media types allow, and each file sent through the
//! contributor calls (lib/upload/contribution.ts). Spec §4: a failed upload start or finish marks
//! the file rejected; it shows 'Rejected' with a Retry, which runs create (the same client_id:
//! the server restarts that same submission), start, upload and finish again. Files sent earlier
//! are listed with their state; while one is being checked the step is asked for every 5 s.
//! A contributor's files are kept in memory only (not in the owner's offline store).
import { useEffect, useRef, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { BackControl } from '../../../components/BackControl';
import { CaptureModeTabs } from '../../../components/capture/CaptureModeTabs';
import { FilePicker } from '../../../components/capture/FilePicker';
import { Recorder, type Recording } from '../../../components/capture/Recorder';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { firstErrorMessage, isDefinitive, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { formatFileSize, truncateName } from '../../../lib/format/format';
import { sha256Hex } from '../../../lib/hash/sha256';
import { captureName, MEDIA_TYPE_OF, MODE_OF, type CaptureMode } from '../../../lib/media/capture';
import { useLocation } from '../../../lib/media/useLocation';
import { uploadContribution, type ContributionBody, type ContributionRef } from '../../../lib/upload/contribution';
import { UNEXPECTED_UPLOAD_FAILURE } from '../../../lib/upload/queue';
import { holdReload } from '../../../lib/network/reloadHold';
import { CONNECTION_LOST, xhrSender } from '../../../lib/upload/transport';
import { UploadError } from '../../../lib/upload/uploader';
import { useContributionDetailsQuery, useContributionStepQuery, useRenameContributionMutation } from '../api/contributionApi';
import { LazyRenameDialog } from '../../../components/LazyRenameDialog';
import { SubmissionList } from '../components/SubmissionList';
import { CONNECTION_LOST_HERE, LINK_USED_UP, REJECTED, STEP_FULL, statusLabel } from '../model/messages';
import { checkingAny } from '../model/status';
import { contributionToken, folderPath, verificationPath } from '../model/token';
import { contributionTransport } from '../model/transport';
import { CHECK_POLL_MS, useTokenRefused } from './ContributorFolderPage';
import '../contribution.css';

/** A file of this visit: sending, sent (with the server's state) or rejected (with a Retry). */
interface SentFile {
  clientId: string;
  body: ContributionBody;
  blob: Blob;
  preview?: string;
  state: 'sending' | 'sent' | 'rejected';
  loaded: number;
  reason?: string;
  evidence?: ContributionRef;
}

export function ContributorEvidencePage() {
  const { folderId = '', stepId = '' } = useParams();
  const token = contributionToken(folderId);
  if (!token) return <Navigate to={verificationPath(folderId)} replace />;
  return <ContributorEvidence folderId={folderId} stepId={stepId} token={token} />;
}

function ContributorEvidence({ folderId, stepId, token }: { folderId: string; stepId: string; token: string }) {
  const dispatch = useAppDispatch();
  const location = useLocation();
  const step = useContributionStepQuery({ folderId, stepId, token });
  const details = useContributionDetailsQuery({ folderId, token });
  const [files, setFiles] = useState<SentFile[]>([]);
  const [chosenMode, setChosenMode] = useState<CaptureMode>();
  const [notSaved, setNotSaved] = useState<string>();
  const transport = useRef(contributionTransport(dispatch, { folderId, stepId, token }));
  // A sent file being renamed: its id, its name, and for a file of this visit its row.
  // Files not yet sent live in this page only: the network's return must not reload it away.
  const unsent = files.some((file) => file.state !== 'sent');
  useEffect(() => (unsent ? holdReload() : undefined), [unsent]);
  const [renaming, setRenaming] = useState<{ id: string; name: string; clientId?: string } | null>(null);
  const [rename] = useRenameContributionMutation();

  const submissions = step.data?.submissions ?? [];
  const byId = new Map(submissions.map((submission) => [submission.id, submission]));
  // A sent file's state as the server last told it (the step is asked again while it is checked).
  const latest = (file: SentFile) => (file.state === 'sent' && file.evidence ? (byId.get(file.evidence.id) ?? file.evidence) : file.evidence);
  const checking = checkingAny(submissions) || files.some((f) => f.state === 'sent' && latest(f)?.status === 'uploaded');
  useContributionStepQuery({ folderId, stepId, token }, { pollingInterval: checking ? CHECK_POLL_MS : 0, skip: !checking });
  useTokenRefused(folderId, step.error);

  const modes = (step.data?.step.mediaTypes ?? [])
    .map((type) => MODE_OF[type as keyof typeof MODE_OF])
    .filter((mode): mode is CaptureMode => mode !== undefined);
  const mode = chosenMode && modes.includes(chosenMode) ? chosenMode : modes[0];

  const update = (clientId: string, change: Partial<SentFile>) =>
    setFiles((current) => current.map((file) => (file.clientId === clientId ? { ...file, ...change } : file)));

  async function send(file: SentFile) {
    update(file.clientId, { state: 'sending', loaded: 0, reason: undefined });
    try {
      const finished = await uploadContribution(file.blob, file.body, {
        transport: transport.current,
        sender: xhrSender,
        onCreated: (evidence) => update(file.clientId, { evidence }),
        onProgress: (loaded) => update(file.clientId, { loaded }),
      });
      if (finished.status === 'rejected') {
        update(file.clientId, { state: 'rejected', evidence: finished, reason: finished.rejectionReason ?? undefined });
      } else {
        update(file.clientId, { state: 'sent', evidence: finished });
      }
    } catch (error) {
      // Spec §4: a failed start or finish marks the file rejected.
      const reason = !(error instanceof UploadError) ? UNEXPECTED_UPLOAD_FAILURE : error.message === CONNECTION_LOST ? CONNECTION_LOST_HERE : error.message;
      update(file.clientId, { state: 'rejected', reason });
    }
  }

  async function onCaptured(recording: Recording) {
    setNotSaved(undefined);
    let sha256: string;
    try {
      sha256 = await sha256Hex(recording.blob);
    } catch {
      setNotSaved('The file could not be read. Try again.');
      return;
    }
    const clientId = crypto.randomUUID();
    const body: ContributionBody = {
      client_id: clientId,
      name: captureName(recording.mode, recording.capturedAt),
      media_type: MEDIA_TYPE_OF[recording.mode],
      mime_type: recording.mimeType,
      file_size: recording.blob.size,
      sha256,
      captured_at: recording.capturedAt.toISOString(),
      ...(location.status === 'located' && { latitude: location.latitude, longitude: location.longitude }),
      ...(recording.durationSeconds !== undefined && { duration: recording.durationSeconds }),
    };
    const file: SentFile = {
      clientId,
      body,
      blob: recording.blob,
      preview: recording.preview ? URL.createObjectURL(recording.preview) : undefined,
      state: 'sending',
      loaded: 0,
    };
    setFiles((current) => [file, ...current]);
    await send(file);
  }

  // Submissions of this visit are shown by their rows; the list holds the others.
  const mine = new Set(files.map((f) => f.evidence?.id).filter(Boolean));
  const earlier = submissions.filter((submission) => !mine.has(submission.id));
  // The step takes at most max_files (the server counts everyone's; these are the caller's own).
  const held = submissions.filter((submission) => submission.status !== 'rejected').length;
  const full = step.data !== undefined && held >= step.data.step.maxFiles;
  // The link's submissions are counted over every step (a step opened by its address included).
  const usedUp = details.data?.submissionsLeft === 0;

  return (
    <main className="page capture contribution">
      <header className="capture__header">
        <BackControl to={folderPath(folderId)} label="Folder" />
        <h1>{step.data?.step.name ?? 'Capture'}</h1>
      </header>
      {step.isLoading && <p className="muted">Loading…</p>}
      {step.isError && (
        <>
          <InfoBanner type="error" title={firstErrorMessage(step.error, SERVER_ERROR_MESSAGE)} />
          {!isDefinitive(step.error) && (
            <PrimaryButton variant="secondary" onClick={() => void step.refetch()}>
              Try Again
            </PrimaryButton>
          )}
        </>
      )}
      {step.data && (
        <>
          {step.data.step.instructions && <p className="contribution-step__instructions">{step.data.step.instructions}</p>}
          {files.length > 0 && (
            <section aria-label="Files">
              <ul className="upload-list">
                {files.map((file) => (
                  <SentRow
                    key={file.clientId}
                    file={{ ...file, evidence: latest(file) }}
                    onRetry={() => void send(file)}
                    onRename={() => file.evidence && setRenaming({ id: file.evidence.id, name: file.body.name, clientId: file.clientId })}
                  />
                ))}
              </ul>
            </section>
          )}
          {notSaved && <InfoBanner type="error" title={notSaved} />}
          {full && <InfoBanner type="info" title={STEP_FULL} />}
          {usedUp && !full && <InfoBanner type="info" title={LINK_USED_UP} />}
          {mode && !full && !usedUp && (
            <>
              {modes.length > 1 && <CaptureModeTabs modes={modes} mode={mode} onChange={setChosenMode} />}
              <Recorder key={mode} mode={mode} onCaptured={(r) => void onCaptured(r)} />
              <FilePicker modes={modes} onPicked={(r) => void onCaptured(r)} />
            </>
          )}
          {earlier.length > 0 && (
            <section aria-label="Sent before">
              <h2 className="capture__files-title">Sent before</h2>
              <SubmissionList submissions={earlier} onRename={(s) => setRenaming({ id: s.id, name: s.name })} />
            </section>
          )}
        </>
      )}
      {renaming && (
        <LazyRenameDialog
          title="Rename file"
          initialName={renaming.name}
          onSubmit={async (name) => {
            const result = await rename({ evidenceId: renaming.id, folderId, token, name });
            if ('error' in result) return result.error;
            const { clientId } = renaming;
            if (clientId) setFiles((current) => current.map((f) => (f.clientId === clientId ? { ...f, body: { ...f.body, name } } : f)));
            return undefined;
          }}
          onClose={() => setRenaming(null)}
        />
      )}
    </main>
  );
}

function SentRow({ file, onRetry, onRename }: { file: SentFile; onRetry: () => void; onRename: () => void }) {
  const { body } = file;
  return (
    <li className="upload-row" data-testid="contribution-row" data-status={file.state} aria-label={body.name}>
      <div className="upload-row__thumb">
        {file.preview ? <img src={file.preview} alt="" /> : <span className={`upload-row__icon upload-row__icon--${body.media_type}`} aria-hidden="true" />}
      </div>
      <div className="upload-row__body">
        <p className="upload-row__name" title={body.name}>
          {truncateName(body.name)}
        </p>
        <p className="upload-row__meta muted">{formatFileSize(body.file_size)}</p>
        {file.state === 'sending' && (
          <div className="upload-row__progress">
            <progress max={body.file_size || 1} value={file.loaded} aria-label={`Uploading ${body.name}`} />
          </div>
        )}
        {file.state === 'sent' && file.evidence && (
          <div className="upload-row__actions">
            <p className={`upload-row__status${file.evidence.status === 'verified' ? ' upload-row__status--done' : ''}`}>{statusLabel(file.evidence.status)}</p>
            {file.evidence.status !== 'rejected' && (
              <button type="button" className="link" aria-label={`Rename ${body.name}`} onClick={onRename}>
                Rename
              </button>
            )}
          </div>
        )}
        {file.state === 'rejected' && (
          <div className="upload-row__status upload-row__status--error">
            <p>
              <strong>{REJECTED}</strong>
              {file.reason && <span className="upload-row__reason"> {file.reason}</span>}
            </p>
            <div className="upload-row__actions">
              <button type="button" className="link" onClick={onRetry}>
                Retry
              </button>
            </div>
          </div>
        )}
      </div>
    </li>
  );
}
