//! /evidence (spec §2): capture photo, video and audio into a situation's folder, with the place,
//! and watch each file upload. Query: situation (a folder id, or the id of a new situation whose
//! folder is made on the first upload), syncOffline=1 (resume files stored offline), mode
//! (photo | video | audio), section (a rental section), retake (the item a capture replaces) and
//! returnTo (where 'Done' goes; else the folder just filled). Without a situation the tab's open
//! capture session is continued (model/captureSession.ts), so coming back before 'Done' fills the
//! same folder. Every capture is stored on the device first and leaves the store only once
//! uploaded, so a lost network, a reload or a closed tab loses nothing. The files of the session
//! are listed above the camera, so a phone shows them without scrolling.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../lib/store/hooks';
import { BackControl } from '../../../components/BackControl';
import { InfoBanner } from '../../../components/InfoBanner';
import { errorStatus } from '../../../lib/api/errors';
import { EXPIRED_MESSAGE, useFolderQuery, useItemQuery } from '../../../lib/api/evidence';
import { formatDate } from '../../../lib/format/format';
import { CAPTURE_MODES, MODE_OF, type CaptureMode } from '../../../lib/media/capture';
import { useLocation } from '../../../lib/media/useLocation';
import { useOnline } from '../../../lib/network/useOnline';
import type { CaptureInfo } from '../../../lib/offline/offlineStore';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useUploadQueue } from '../../../lib/upload/uploadQueueContext';
import { selectSituationFolder } from '../../../lib/upload/uploadSlice';
import { CaptureModeTabs } from '../../../components/capture/CaptureModeTabs';
import { LocationHelpSheet } from '../../../components/capture/LocationHelpSheet';
import { Recorder, type Recording } from '../../../components/capture/Recorder';
import { UploadRow } from '../../../components/capture/UploadRow';
import { notSavedMessage, storeRecording, useSituationCaptures } from '../../../components/capture/useSituationCaptures';
import { closeCaptureSession, isOpenCaptureSession, openCaptureSession } from '../model/captureSession';

export const LOCATION_OFF = 'Location is off: files will be saved without their place.';

function isMode(value: string | null): value is CaptureMode {
  return value !== null && (CAPTURE_MODES as string[]).includes(value);
}

/** Only paths inside the app: a returnTo elsewhere is ignored. */
function safeReturnTo(value: string | null): string | undefined {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : undefined;
}

/** What the app shows under the capture of a situation (another feature's, so passed in). */
export type BelowCapture = (context: { situation: string; folderId?: string }) => ReactNode;

export function EvidencePage({ below }: { below?: BelowCapture } = {}) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const uploadQueue = useUploadQueue();
  const online = useOnline();
  const location = useLocation();
  const [helpOpen, setHelpOpen] = useState(false);

  const situation = params.get('situation');
  const syncOffline = params.get('syncOffline') === '1';
  const section = params.get('section') ?? undefined;
  const retakeOf = params.get('retake') ?? undefined;
  const returnTo = safeReturnTo(params.get('returnTo'));
  const retakeItem = useItemQuery(retakeOf ?? '', { skip: !retakeOf || !online });
  const lockedMode = retakeItem.data ? MODE_OF[retakeItem.data.mediaType as keyof typeof MODE_OF] : undefined;
  const requestedMode = params.get('mode');
  const mode: CaptureMode = lockedMode ?? (isMode(requestedMode) ? requestedMode : 'photo');

  // A visit without a situation continues the tab's open capture session (or opens one) at once,
  // so a reload or the banner's Continue comes back to it.
  useEffect(() => {
    if (situation) return;
    const next = new URLSearchParams(params);
    next.set('situation', openCaptureSession());
    setParams(next, { replace: true });
  }, [situation, params, setParams]);

  // A new situation's folder is found by its id once an upload has made it (the service knows a
  // folder by its id only, not by the situation it was made for). The tab's own session is known
  // to be new: asking for a folder by its id would only answer 404.
  const madeFolderId = useAppSelector((state) => (situation ? selectSituationFolder(state, situation) : undefined));
  const ownSession = isOpenCaptureSession(situation);
  const folder = useFolderQuery(madeFolderId ?? situation ?? '', { skip: !situation || !online || (ownSession && !madeFolderId) });
  const folderId = folder.data?.id;
  const isNewSituation = !madeFolderId && (ownSession || errorStatus(folder.error) === 404);
  const expired = folder.data?.expired ?? retakeItem.data?.expired ?? false;

  // The situation's captures: those stored on the device, and those uploaded while this screen is open.
  const { rows, previews, addPreview, discard } = useSituationCaptures(situation, online);

  async function onCaptured(recording: Recording) {
    if (!situation) return;
    try {
      const id = await storeRecording(recording, { situation, newSituation: ownSession, folderId, section, retakeOf }, location, uploadQueue);
      if (recording.preview) addPreview(id, recording.preview);
    } catch (error) {
      dispatch(showSnackbar({ message: notSavedMessage(error), type: 'error' }));
    }
  }

  async function retakeRow(capture: CaptureInfo) {
    await discard(capture.id);
    const next = new URLSearchParams(params);
    next.set('mode', MODE_OF[capture.mediaType]);
    next.delete('syncOffline');
    setParams(next, { replace: true });
  }

  function setMode(next: CaptureMode) {
    const query = new URLSearchParams(params);
    query.set('mode', next);
    setParams(query, { replace: true });
  }

  const uploadedFolderId = folderId ?? rows.map((r) => r.folderId).find(Boolean);
  const title = retakeOf ? 'Retake' : section ? `Capture: ${section[0]?.toUpperCase()}${section.slice(1)}` : 'Capture Evidence';
  const captureAllowed = !expired && (!retakeOf || !!retakeItem.data || !online);
  const doneTarget = useMemo(
    () => returnTo ?? (uploadedFolderId ? `/folder-view?folderId=${encodeURIComponent(uploadedFolderId)}` : '/dashboard/my-files'),
    [returnTo, uploadedFolderId],
  );

  return (
    <main className="page capture">
      <header className="capture__header">
        <BackControl onClick={() => navigate(-1)} />
        <h1>{title}</h1>
        {rows.length > 0 && (
          <Link className="btn btn--primary capture__done" to={doneTarget} onClick={() => closeCaptureSession(situation)}>
            Done
          </Link>
        )}
      </header>

      {folder.data && (
        <p className="muted capture__folder">
          {folder.data.name}
          {folder.data.expirationDate && ` · Storage date ${formatDate(folder.data.expirationDate)}`}
        </p>
      )}
      {isNewSituation && <p className="muted capture__folder">A new folder is made for these files.</p>}
      {expired && <InfoBanner type="attention" title={EXPIRED_MESSAGE} />}
      {location.status === 'denied' && (
        <InfoBanner type="attention" title={LOCATION_OFF} actionLabel="How to turn it on" onAction={() => setHelpOpen(true)} />
      )}
      {location.status === 'located' && (
        <p className="muted capture__location" data-testid="capture-location">
          Location: {location.latitude.toFixed(5)}, {location.longitude.toFixed(5)}
        </p>
      )}

      {!retakeOf && (
        <CaptureModeTabs modes={CAPTURE_MODES} mode={mode} onChange={setMode} />
      )}

      {rows.length > 0 && (
        <section className="capture__files" aria-label="Files">
          <h2 className="capture__files-title">
            Files <span className="muted">({rows.length})</span>
          </h2>
          {/* Newest first: the file just taken is the one whose upload the user watches. */}
          <ul className="upload-list upload-list--compact">
            {[...rows].reverse().map((capture) => (
              <UploadRow
                key={capture.id}
                capture={capture}
                preview={previews[capture.id]}
                online={online}
                onRetake={() => void retakeRow(capture)}
                onRetry={() => void uploadQueue.upload(capture.id)}
              />
            ))}
          </ul>
        </section>
      )}

      {!(syncOffline && rows.length > 0) && captureAllowed && <Recorder key={mode} mode={mode} onCaptured={(r) => void onCaptured(r)} />}
      {syncOffline && rows.length > 0 && (
        <button type="button" className="btn btn--secondary" onClick={() => {
            const query = new URLSearchParams(params);
            query.delete('syncOffline');
            setParams(query, { replace: true });
          }}>
          Capture More
        </button>
      )}

      {situation && online && !retakeOf && !section && below?.({ situation, folderId: uploadedFolderId })}

      <LocationHelpSheet open={helpOpen} onClose={() => setHelpOpen(false)} />
    </main>
  );
}
