//! The camera and microphone: a live preview, and a photo (a frame of the camera), a video or an
//! audio note (MediaRecorder). Tracks stop when the screen goes; give it `key={mode}` so a new mode
//! starts afresh. The preview shows the camera's whole frame at its own aspect, the frame a photo
//! saves: what the user frames is what is kept.
import { useEffect, useRef, useState } from 'react';
import { formatDuration } from '../../lib/format/format';
import { baseMimeType, frameToJpeg, mediaErrorMessage, recorderMimeType, type CaptureMode } from '../../lib/media/capture';

export interface Recording {
  mode: CaptureMode;
  blob: Blob;
  mimeType: string;
  /** When the capture began (the shutter, or the start of recording). */
  capturedAt: Date;
  durationSeconds?: number;
  /** A small still to show in the row (a photo's own bytes, a video's first frame). */
  preview?: Blob;
}

interface Props {
  mode: CaptureMode;
  disabled?: boolean;
  onCaptured: (recording: Recording) => void;
}

const TIMESLICE_MS = 1000;

/** The video's frame as a CSS aspect ratio ('1920 / 1080'), or undefined before it is known. */
export function frameAspect(video: HTMLVideoElement): string | undefined {
  return video.videoWidth > 0 && video.videoHeight > 0 ? `${video.videoWidth} / ${video.videoHeight}` : undefined;
}

function constraints(mode: CaptureMode): MediaStreamConstraints {
  const video = { facingMode: { ideal: 'environment' }, width: { ideal: 1920 }, height: { ideal: 1080 } };
  if (mode === 'photo') return { video, audio: false };
  if (mode === 'video') return { video, audio: true };
  return { audio: true, video: false };
}

export function Recorder({ mode, disabled = false, onCaptured }: Props) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [stream, setStream] = useState<MediaStream>();
  const [error, setError] = useState<string>();
  const [recording, setRecording] = useState<{ recorder: MediaRecorder; startedAt: number }>();
  const [elapsed, setElapsed] = useState(0);
  const [busy, setBusy] = useState(false);
  // The camera's frame as width / height, once known (it changes when the phone turns).
  const [aspect, setAspect] = useState<string>();
  const onCapturedRef = useRef(onCaptured);
  useEffect(() => {
    onCapturedRef.current = onCaptured;
  }, [onCaptured]);

  useEffect(() => {
    let cancelled = false;
    let opened: MediaStream | undefined;
    if (!navigator.mediaDevices?.getUserMedia) return undefined;
    navigator.mediaDevices.getUserMedia(constraints(mode)).then(
      (media) => {
        if (cancelled) {
          media.getTracks().forEach((t) => t.stop());
          return;
        }
        opened = media;
        setStream(media);
      },
      (e: unknown) => {
        if (!cancelled) setError(mediaErrorMessage(e, mode));
      },
    );
    return () => {
      cancelled = true;
      opened?.getTracks().forEach((t) => t.stop());
    };
  }, [mode]);

  useEffect(() => {
    const video = videoRef.current;
    if (video && stream && mode !== 'audio') {
      video.srcObject = stream;
      void video.play().catch(() => undefined);
    }
  }, [stream, mode]);

  useEffect(() => {
    if (!recording) return undefined;
    const timer = setInterval(() => setElapsed((Date.now() - recording.startedAt) / 1000), 250);
    return () => clearInterval(timer);
  }, [recording]);

  async function takePhoto() {
    const video = videoRef.current;
    if (!video || !stream) return;
    setBusy(true);
    try {
      const capturedAt = new Date();
      const blob = await frameToJpeg(video);
      onCapturedRef.current({ mode: 'photo', blob, mimeType: 'image/jpeg', capturedAt, preview: blob });
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The picture could not be made.');
    } finally {
      setBusy(false);
    }
  }

  async function startRecording() {
    if (!stream || mode === 'photo') return;
    const chosen = recorderMimeType(mode, (t) => MediaRecorder.isTypeSupported(t));
    const recorder = new MediaRecorder(stream, chosen ? { mimeType: chosen } : undefined);
    const chunks: Blob[] = [];
    const capturedAt = new Date();
    const startedAt = Date.now();
    const poster = mode === 'video' && videoRef.current ? frameToJpeg(videoRef.current, 320, 0.8).catch(() => undefined) : Promise.resolve(undefined);
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    recorder.onstop = () => {
      const durationSeconds = (Date.now() - startedAt) / 1000;
      const mimeType = baseMimeType(recorder.mimeType || chosen || '', mode === 'video' ? 'video/webm' : 'audio/webm');
      const blob = new Blob(chunks, { type: mimeType });
      void poster.then((preview) => onCapturedRef.current({ mode, blob, mimeType, capturedAt, durationSeconds, preview }));
    };
    recorder.start(TIMESLICE_MS);
    setElapsed(0);
    setRecording({ recorder, startedAt });
  }

  function stopRecording() {
    recording?.recorder.stop();
    setRecording(undefined);
  }

  const unsupported = !navigator.mediaDevices?.getUserMedia;
  const shownError = unsupported ? 'This browser cannot use the camera or microphone.' : error;
  // A photo or video waits for the camera's first frame: before it, a picture would be one blank pixel.
  const ready = !!stream && !disabled && !busy && (mode === 'audio' || !!aspect);
  return (
    <div className="capture-recorder">
      {mode === 'audio' ? (
        <div className={`capture-recorder__audio${recording ? ' capture-recorder__audio--live' : ''}`} aria-hidden="true">
          {Array.from({ length: 7 }, (_, i) => (
            <span key={i} style={{ animationDelay: `${i * 0.12}s` }} />
          ))}
        </div>
      ) : (
        <video
          ref={videoRef}
          className="capture-recorder__preview"
          style={aspect ? { aspectRatio: aspect } : undefined}
          muted
          playsInline
          aria-label="Camera preview"
          onLoadedMetadata={(e) => setAspect(frameAspect(e.currentTarget))}
          onResize={(e) => setAspect(frameAspect(e.currentTarget))}
        />
      )}
      {shownError && (
        <p className="field__error" role="alert">
          {shownError}
        </p>
      )}
      {recording && (
        <p className="capture-recorder__timer" role="timer" aria-label="Recording time">
          <span className="capture-recorder__dot" /> {formatDuration(elapsed)}
        </p>
      )}
      <div className="capture-recorder__controls">
        {mode === 'photo' && (
          <button type="button" className="btn btn--primary" disabled={!ready} onClick={() => void takePhoto()}>
            Take Photo
          </button>
        )}
        {mode !== 'photo' && !recording && (
          <button type="button" className="btn btn--primary" disabled={!ready} onClick={() => void startRecording()}>
            {mode === 'video' ? 'Start Recording' : 'Start Audio Recording'}
          </button>
        )}
        {recording && (
          <button type="button" className="btn btn--red" onClick={stopRecording}>
            Stop Recording
          </button>
        )}
      </div>
    </div>
  );
}
