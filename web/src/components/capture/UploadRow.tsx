//! An upload row (spec §4): 'Uploaded', 'Error' with a retake and the reason in words, a progress
//! bar with the remaining time ('Initializing...' before an estimate; after a failed attempt
//! 'Upload failed, retrying (attempt n of m)...' and why it failed), or waiting for the network.
import { useAppSelector } from '../../lib/store/hooks';
import { formatDuration, formatFileSize, truncateName } from '../../lib/format/format';
import type { CaptureInfo } from '../../lib/offline/offlineStore';
import {
  remainingLabel,
  selectRemainingSeconds,
  selectUploadError,
  selectUploadFraction,
  selectUploadRetry,
  selectUploadStatus,
} from '../../lib/upload/uploadSlice';

export const UPLOADED_LABEL = 'Uploaded';
export const ERROR_LABEL = 'Error';
export const WAITING_LABEL = 'Waiting for the network';

interface Props {
  capture: CaptureInfo;
  preview?: Blob;
  online: boolean;
  onRetake: () => void;
  onRetry: () => void;
}

// Object URLs of row previews, made once per blob. They are few and small (a photo, a video's
// first frame) and live as long as the page; revoking them on unmount would break a remount.
const previewUrls = new WeakMap<Blob, string>();

function previewUrl(preview: Blob | undefined): string | undefined {
  if (!preview) return undefined;
  let url = previewUrls.get(preview);
  if (!url) {
    url = URL.createObjectURL(preview);
    previewUrls.set(preview, url);
  }
  return url;
}

export function UploadRow({ capture, preview, online, onRetake, onRetry }: Props) {
  const status = useAppSelector((state) => selectUploadStatus(state, capture.id));
  const fraction = useAppSelector((state) => selectUploadFraction(state, capture.id));
  const remaining = useAppSelector((state) => selectRemainingSeconds(state, capture.id));
  const error = useAppSelector((state) => selectUploadError(state, capture.id));
  const retry = useAppSelector((state) => selectUploadRetry(state, capture.id));
  const thumb = previewUrl(preview);

  return (
    <li className="upload-row" data-testid="upload-row" data-status={status ?? 'waiting'} aria-label={capture.name}>
      <div className="upload-row__thumb">
        {thumb ? <img src={thumb} alt="" /> : <span className={`upload-row__icon upload-row__icon--${capture.mediaType}`} aria-hidden="true" />}
      </div>
      <div className="upload-row__body">
        <p className="upload-row__name" title={capture.name}>
          {truncateName(capture.name)}
        </p>
        <p className="upload-row__meta muted">
          {formatFileSize(capture.size)}
          {capture.durationSeconds !== undefined && ` · ${formatDuration(capture.durationSeconds)}`}
        </p>
        {status === 'fulfilled' && <p className="upload-row__status upload-row__status--done">{UPLOADED_LABEL}</p>}
        {status === 'rejected' && (
          <div className="upload-row__status upload-row__status--error">
            <p>
              <strong>{ERROR_LABEL}</strong>
              {error && <span className="upload-row__reason"> {error}</span>}
            </p>
            <div className="upload-row__actions">
              <button type="button" className="link" onClick={onRetake}>
                Retake
              </button>
              {online && (
                <button type="button" className="link" onClick={onRetry}>
                  Try again
                </button>
              )}
            </div>
          </div>
        )}
        {status === 'pending' && (
          <>
            <div className="upload-row__progress">
              {/* Between attempts nothing is being sent: the words say what happens instead. */}
              {!(retry && remaining === undefined) && <progress max={1} value={fraction ?? 0} aria-label={`Uploading ${capture.name}`} />}
              <span className="muted" role="status">
                {remainingLabel(remaining, retry)}
              </span>
            </div>
            {retry && remaining === undefined && <p className="upload-row__reason muted">{retry.reason}</p>}
          </>
        )}
        {status === undefined && <p className="upload-row__status muted">{online ? 'Waiting' : WAITING_LABEL}</p>}
      </div>
    </li>
  );
}
