// The camera preview shows the whole frame at the camera's own aspect, the frame a photo saves
// (frameToJpeg draws videoWidth x videoHeight): a landscape stream is not shown as a portrait crop.
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { frameAspect, Recorder } from './Recorder';

function video(width: number, height: number) {
  const element = document.createElement('video');
  Object.defineProperty(element, 'videoWidth', { value: width, configurable: true });
  Object.defineProperty(element, 'videoHeight', { value: height, configurable: true });
  return element;
}

beforeEach(() => {
  vi.stubGlobal('navigator', {
    ...navigator,
    mediaDevices: { getUserMedia: vi.fn(async () => ({ getTracks: () => [] })) },
  });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the camera preview', () => {
  it('takes the aspect of the frame the camera sends', () => {
    expect(frameAspect(video(1920, 1080))).toBe('1920 / 1080');
    expect(frameAspect(video(1080, 1920))).toBe('1080 / 1920');
    expect(frameAspect(video(0, 0))).toBeUndefined();
  });

  it('sizes the preview to the frame once the stream reports it, and again when it turns', () => {
    render(<Recorder mode="photo" onCaptured={() => undefined} />);
    const preview = screen.getByLabelText('Camera preview');
    expect(preview.style.getPropertyValue('aspect-ratio')).toBe('');
    Object.defineProperty(preview, 'videoWidth', { value: 1920, configurable: true });
    Object.defineProperty(preview, 'videoHeight', { value: 1080, configurable: true });
    fireEvent.loadedMetadata(preview);
    expect(preview.style.getPropertyValue('aspect-ratio')).toBe('1920 / 1080');
    Object.defineProperty(preview, 'videoWidth', { value: 1080, configurable: true });
    Object.defineProperty(preview, 'videoHeight', { value: 1920, configurable: true });
    fireEvent(preview, new Event('resize'));
    expect(preview.style.getPropertyValue('aspect-ratio')).toBe('1080 / 1920');
  });
});
