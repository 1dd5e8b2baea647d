import { describe, expect, it } from 'vitest';
import { fileNameError } from '../validation/fileName';
import { baseMimeType, captureName, frameToJpeg, mediaErrorMessage, recorderMimeType } from './capture';

describe('capture helpers', () => {
  it('picks the first container the browser records', () => {
    expect(recorderMimeType('video', (t) => t.startsWith('video/webm'))).toBe('video/webm;codecs=vp9,opus');
    expect(recorderMimeType('audio', (t) => t === 'audio/webm')).toBe('audio/webm');
    expect(recorderMimeType('audio', () => false)).toBeUndefined();
  });

  it('stores the container type without codecs', () => {
    expect(baseMimeType('video/webm;codecs=vp8,opus', 'video/webm')).toBe('video/webm');
    expect(baseMimeType('', 'audio/webm')).toBe('audio/webm');
  });

  it('names captures with local time in characters the file-name rules accept', () => {
    const name = captureName('video', new Date(2026, 10, 21, 9, 5, 12));
    expect(name).toBe('Video_20261121_090512');
    expect(fileNameError(name)).toBeUndefined();
  });

  it('explains a refused camera', () => {
    expect(mediaErrorMessage(new DOMException('denied', 'NotAllowedError'), 'photo')).toBe(
      'Allow Evidentia to use the camera in your browser settings, then try again.',
    );
    expect(mediaErrorMessage(new DOMException('none', 'NotFoundError'), 'audio')).toBe('No microphone was found on this device.');
    expect(mediaErrorMessage(new DOMException('none', 'NotFoundError'), 'video')).toBe('No camera or microphone was found on this device.');
  });
});

describe('frameToJpeg', () => {
  it('refuses a camera that has no frame yet instead of making a one-pixel picture', async () => {
    const video = document.createElement('video');
    await expect(frameToJpeg(video)).rejects.toThrow('The camera is not ready yet. Try again.');
  });
});
