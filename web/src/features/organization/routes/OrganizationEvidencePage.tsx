//! `/organization-evidence/:folderId/:stepId` (signed in, any participant): capture into one step
//! of an organization folder with the same camera, offline store and upload queue as /evidence
//! (components/capture): the step's name and instructions, only the capture modes its media types
//! allow, and each file's upload row. Every capture goes to the folder with the step's id
//! (`step_id` in the item's create), waits on the device until uploaded, and Done goes back to
//! the folder.
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { BackControl } from '../../../components/BackControl';
import { CaptureModeTabs } from '../../../components/capture/CaptureModeTabs';
import { LocationHelpSheet } from '../../../components/capture/LocationHelpSheet';
import { Recorder, type Recording } from '../../../components/capture/Recorder';
import { UploadRow } from '../../../components/capture/UploadRow';
import { useUploadQueue } from '../../../lib/upload/uploadQueueContext';
import { notSavedMessage, storeRecording, useSituationCaptures } from '../../../components/capture/useSituationCaptures';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { EXPIRED_MESSAGE } from '../../../lib/api/evidence';
import { firstErrorMessage, isDefinitive, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { MODE_OF, type CaptureMode } from '../../../lib/media/capture';
import { useLocation } from '../../../lib/media/useLocation';
import { useOnline } from '../../../lib/network/useOnline';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useOrganizationFolderQuery } from '../api/captureApi';
import type { FolderStep } from '../api/types';
import { organizationFolderPath } from '../model/paths';
import { stepSituation } from '../../../lib/offline/situations';
import '../organization.css';

export const LOCATION_OFF = 'Location is off: files will be saved without their place.';


export function OrganizationEvidencePage() {
  const { folderId = '', stepId = '' } = useParams();
  const folder = useOrganizationFolderQuery(folderId);
  const step = folder.data?.steps.find((s) => s.id === stepId);

  if (step && folder.data) return <StepCapture folderId={folderId} step={step} expired={folder.data.expired} />;
  return (
    <main className="page capture">
      <header className="capture__header">
        <BackControl to={organizationFolderPath(folderId)} label="Folder" />
        <h1>Capture</h1>
      </header>
      {folder.isLoading && <p className="muted">Loading…</p>}
      {folder.isError && (
        <>
          <InfoBanner type="error" title={firstErrorMessage(folder.error, SERVER_ERROR_MESSAGE)} />
          {!isDefinitive(folder.error) && (
            <PrimaryButton variant="secondary" onClick={() => void folder.refetch()}>
              Try Again
            </PrimaryButton>
          )}
        </>
      )}
      {folder.data && !step && <InfoBanner type="error" title="This step is not in the folder." />}
    </main>
  );
}

function StepCapture({ folderId, step, expired }: { folderId: string; step: FolderStep; expired: boolean }) {
  const dispatch = useAppDispatch();
  const uploadQueue = useUploadQueue();
  const online = useOnline();
  const location = useLocation();
  const [helpOpen, setHelpOpen] = useState(false);
  const situation = stepSituation(folderId, step.id);
  const { rows, previews, addPreview, discard } = useSituationCaptures(situation, online);
  const modes = step.mediaTypes.map((kind) => MODE_OF[kind]).filter((mode): mode is CaptureMode => mode !== undefined);
  const [chosen, setChosen] = useState<CaptureMode>();
  const mode = chosen && modes.includes(chosen) ? chosen : modes[0];

  async function onCaptured(recording: Recording) {
    try {
      const id = await storeRecording(recording, { situation, folderId, stepId: step.id }, location, uploadQueue);
      if (recording.preview) addPreview(id, recording.preview);
    } catch (error) {
      dispatch(showSnackbar({ message: notSavedMessage(error), type: 'error' }));
    }
  }

  return (
    <main className="page capture">
      <header className="capture__header">
        <BackControl to={organizationFolderPath(folderId)} label="Folder" />
        <h1>{step.name}</h1>
        {rows.length > 0 && (
          <Link className="btn btn--primary capture__done" to={organizationFolderPath(folderId)}>
            Done
          </Link>
        )}
      </header>
      {step.instructions && <p className="org-step__instructions">{step.instructions}</p>}
      <p className="muted capture__folder">
        {step.minFiles > 0 ? `At least ${step.minFiles}, at most ${step.maxFiles} files` : `Up to ${step.maxFiles} files`}
      </p>
      {expired && <InfoBanner type="attention" title={EXPIRED_MESSAGE} />}
      {location.status === 'denied' && (
        <InfoBanner type="attention" title={LOCATION_OFF} actionLabel="How to turn it on" onAction={() => setHelpOpen(true)} />
      )}
      {mode && modes.length > 1 && <CaptureModeTabs modes={modes} mode={mode} onChange={setChosen} />}
      {rows.length > 0 && (
        <section className="capture__files" aria-label="Files">
          <h2 className="capture__files-title">
            Files <span className="muted">({rows.length})</span>
          </h2>
          <ul className="upload-list upload-list--compact">
            {[...rows].reverse().map((capture) => (
              <UploadRow
                key={capture.id}
                capture={capture}
                preview={previews[capture.id]}
                online={online}
                onRetake={() => {
                  void discard(capture.id);
                  setChosen(MODE_OF[capture.mediaType]);
                }}
                onRetry={() => void uploadQueue.upload(capture.id)}
              />
            ))}
          </ul>
        </section>
      )}
      {!expired && mode && <Recorder key={mode} mode={mode} onCaptured={(r) => void onCaptured(r)} />}
      <LocationHelpSheet open={helpOpen} onClose={() => setHelpOpen(false)} />
    </main>
  );
}
