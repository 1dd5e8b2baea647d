//! What the capture screen needs of the browser's media: which container MediaRecorder can write,
//! a still from a video element, names for captures, and turning a recording into a stored capture.
import type { MediaType } from '../offline/offlineStore';

export type CaptureMode = 'photo' | 'video' | 'audio';
export const CAPTURE_MODES: CaptureMode[] = ['photo', 'video', 'audio'];

export const MEDIA_TYPE_OF: Record<CaptureMode, MediaType> = { photo: 'image', video: 'video', audio: 'audio' };
export const MODE_OF: Record<MediaType, CaptureMode> = { image: 'photo', video: 'video', audio: 'audio' };

const VIDEO_TYPES = ['video/mp4;codecs=avc1,mp4a', 'video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus', 'video/webm', 'video/mp4'];
const AUDIO_TYPES = ['audio/mp4', 'audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus'];

/** The first container the browser records, for video or audio; undefined lets the browser choose. */
export function recorderMimeType(mode: 'video' | 'audio', isSupported: (type: string) => boolean): string | undefined {
  return (mode === 'video' ? VIDEO_TYPES : AUDIO_TYPES).find((type) => isSupported(type));
}

/** 'video/webm;codecs=vp8,opus' → 'video/webm': the stored type is the container's. */
export function baseMimeType(type: string, fallback: string): string {
  const base = type.split(';')[0]?.trim().toLowerCase();
  return base && /^[a-z]+\/[a-z0-9.+-]+$/.test(base) ? base : fallback;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A capture's name: 'Photo_20261121_090512' (device-local time). Letters, digits and '_' only, so
 * it passes the file-name rules of spec §5 and can be renamed later.
 */
export function captureName(mode: CaptureMode, at: Date): string {
  const label = mode === 'photo' ? 'Photo' : mode === 'video' ? 'Video' : 'Audio';
  const date = `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  return `${label}_${date}_${time}`;
}

/** The current frame of a playing video element as a JPEG. */
export function frameToJpeg(video: HTMLVideoElement, maxWidth?: number, quality = 0.92): Promise<Blob> {
  if (video.videoWidth === 0 || video.videoHeight === 0) return Promise.reject(new Error('The camera is not ready yet. Try again.'));
  const scale = maxWidth && video.videoWidth > maxWidth ? maxWidth / video.videoWidth : 1;
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(video.videoWidth * scale));
  canvas.height = Math.max(1, Math.round(video.videoHeight * scale));
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('This browser cannot take a picture from the camera.'));
  context.drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The picture could not be made.'))), 'image/jpeg', quality);
  });
}

/** What getUserMedia's failure means to the user. */
export function mediaErrorMessage(error: unknown, mode: CaptureMode): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  const device = mode === 'audio' ? 'microphone' : mode === 'photo' ? 'camera' : 'camera and microphone';
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return `Allow Evidentia to use the ${device} in your browser settings, then try again.`;
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError') {
    return mode === 'video' ? 'No camera or microphone was found on this device.' : `No ${device} was found on this device.`;
  }
  if (name === 'NotReadableError') return `The ${device} is in use by another app.`;
  return `The ${device} could not be started.`;
}
