// spec §2 "Media viewers", §4 "Player", §8 "Fullscreen unavailable", §9 slider range 0-100.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { makeTestStore, renderWithStore } from '../../testing';
import { ImageViewer } from './ImageViewer';
import { FULLSCREEN_UNAVAILABLE } from './types';
import { VideoAudioPlayer } from './VideoAudioPlayer';

function setFullscreenEnabled(value: boolean) {
  Object.defineProperty(document, 'fullscreenEnabled', { configurable: true, get: () => value });
}

let play: Mock<() => Promise<void>>;
beforeEach(() => {
  play = vi.fn(() => Promise.resolve());
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(play);
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  Reflect.deleteProperty(document, 'fullscreenEnabled');
  Reflect.deleteProperty(HTMLElement.prototype, 'requestFullscreen');
});

function renderPlayer(type: 'video' | 'audio' = 'video', extra: { watermark?: string } = {}) {
  const store = makeTestStore();
  const onClose = vi.fn();
  renderWithStore(store, <VideoAudioPlayer source={{ src: 'http://s3.local/v.webm', title: 'Dent', type }} knownDuration={125} onClose={onClose} watermark={extra.watermark} />);
  return { store, onClose };
}

describe('video and audio player', () => {
  it('starts at 0 and plays when opened', async () => {
    renderPlayer();
    await act(async () => undefined);
    expect(play).toHaveBeenCalledTimes(1);
    expect((screen.getByTestId('player-media') as HTMLMediaElement).currentTime).toBe(0);
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
  });

  it('shows elapsed and total time HH:mm:ss and a seek slider from 0 to 100', async () => {
    renderPlayer();
    await act(async () => undefined);
    expect(screen.getByTestId('elapsed')).toHaveTextContent('00:00:00');
    expect(screen.getByTestId('total')).toHaveTextContent('00:02:05');
    const slider = screen.getByRole('slider', { name: 'Seek' });
    expect(slider).toHaveAttribute('min', '0');
    expect(slider).toHaveAttribute('max', '100');
    fireEvent.change(slider, { target: { value: '50' } });
    expect(screen.getByTestId('elapsed')).toHaveTextContent('00:01:02');
  });

  it('sets playing off when the media ends', async () => {
    renderPlayer();
    await act(async () => undefined);
    fireEvent.ended(screen.getByTestId('player-media'));
    expect(screen.getByRole('button', { name: 'Play' })).toBeInTheDocument();
  });

  it("says 'Fullscreen is not available.' when the browser has no fullscreen", async () => {
    setFullscreenEnabled(false);
    const { store } = renderPlayer();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Fullscreen' })));
    expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'info', message: FULLSCREEN_UNAVAILABLE });
  });

  it("says 'Fullscreen is not available.' when the request is refused", async () => {
    setFullscreenEnabled(true);
    const request = vi.fn(() => Promise.reject(new TypeError('denied')));
    Object.defineProperty(HTMLElement.prototype, 'requestFullscreen', { configurable: true, value: request });
    const { store } = renderPlayer();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Fullscreen' })));
    expect(request).toHaveBeenCalled();
    expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'info', message: FULLSCREEN_UNAVAILABLE });
  });

  it('goes full screen without a message when the browser can', async () => {
    setFullscreenEnabled(true);
    const request = vi.fn(() => Promise.resolve());
    Object.defineProperty(HTMLElement.prototype, 'requestFullscreen', { configurable: true, value: request });
    const { store } = renderPlayer();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Fullscreen' })));
    expect(request).toHaveBeenCalled();
    expect(store.getState().snackbar.isShown).toBe(false);
  });

  it('shows animated visuals for audio, running while it plays', async () => {
    renderPlayer('audio');
    await act(async () => undefined);
    expect(screen.getByTestId('audio-visuals')).toHaveClass('media-viewer__visuals--playing');
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(screen.getByTestId('audio-visuals')).not.toHaveClass('media-viewer__visuals--playing');
  });

  it('shows a watermark over the player and closes', async () => {
    const { onClose } = renderPlayer('video', { watermark: 'Unauthenticated Copy' });
    await act(async () => undefined);
    expect(screen.getByText('Unauthenticated Copy')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });
});

describe('image viewer', () => {
  it('shows the image full screen with a watermark and a close button', () => {
    const onClose = vi.fn();
    render(<ImageViewer src="http://s3.local/p.jpg" title="Bumper" onClose={onClose} watermark="Authenticated Copy" />);
    expect(screen.getByRole('dialog', { name: 'Bumper' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Bumper' })).toHaveAttribute('src', 'http://s3.local/p.jpg');
    expect(screen.getByText('Authenticated Copy')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });
});
