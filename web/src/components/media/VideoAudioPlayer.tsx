//! The full-screen video and audio player of spec §2: title bar, play/pause, a seek slider (0 to
//! 100) with elapsed and total time, a fullscreen toggle ('Fullscreen is not available.' when the
//! browser cannot), animated visuals for audio, an optional watermark. Opening it starts at 0 and
//! plays; the end sets playing off (spec §4 "Player"). The seek slider has a row of its own, the
//! screen's width; Escape closes the player.
import { useCallback, useEffect, useRef, useState, type ReactNode, type SyntheticEvent } from 'react';
import { useAppDispatch } from '../../lib/store/hooks';
import { formatDuration } from '../../lib/format/format';
import { showSnackbar } from '../../lib/ui/uiSlice';
import { useEscape } from '../useEscape';
import { FULLSCREEN_UNAVAILABLE, type MediaSource } from './types';

export const SLIDER_MAX = 100;

interface Props {
  source: MediaSource;
  onClose: () => void;
  /** Seconds, when known beforehand: recordings made in the browser often report no duration. */
  knownDuration?: number | null;
  watermark?: ReactNode;
}

const finite = (value: number) => (Number.isFinite(value) && value > 0 ? value : 0);

export function VideoAudioPlayer({ source, onClose, knownDuration, watermark }: Props) {
  const dispatch = useAppDispatch();
  useEscape(onClose);
  const rootRef = useRef<HTMLDivElement>(null);
  const mediaRef = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const [mediaDuration, setMediaDuration] = useState(0);
  const [seeking, setSeeking] = useState(false);
  const duration = finite(mediaDuration) || finite(knownDuration ?? 0);
  const played = duration > 0 ? Math.min(1, elapsed / duration) : 0;

  const play = useCallback(async () => {
    const media = mediaRef.current;
    if (!media) return;
    try {
      await media.play();
      setPlaying(true);
    } catch {
      // Autoplay refused or the source failed: stay paused, the play button is there.
      setPlaying(false);
    }
  }, []);

  // Opening (or a new source) starts from the beginning and plays.
  useEffect(() => {
    const media = mediaRef.current;
    if (!media) return;
    media.currentTime = 0;
    setElapsed(0);
    void play();
  }, [source.src, play]);

  const togglePlay = () => {
    const media = mediaRef.current;
    if (!media) return;
    if (playing) {
      media.pause();
      setPlaying(false);
    } else {
      void play();
    }
  };

  const seek = (percent: number) => {
    const media = mediaRef.current;
    const time = (percent / SLIDER_MAX) * duration;
    setElapsed(time);
    if (media && duration > 0) media.currentTime = time;
  };

  const toggleFullscreen = async () => {
    if (document.fullscreenElement) {
      await document.exitFullscreen().catch(() => undefined);
      return;
    }
    const root = rootRef.current;
    const unavailable = () => dispatch(showSnackbar({ message: FULLSCREEN_UNAVAILABLE, type: 'info' }));
    if (!document.fullscreenEnabled || !root || typeof root.requestFullscreen !== 'function') {
      unavailable();
      return;
    }
    try {
      await root.requestFullscreen();
    } catch {
      unavailable();
    }
  };

  const mediaProps = {
    ref: mediaRef,
    src: source.src,
    preload: 'metadata' as const,
    playsInline: true,
    onLoadedMetadata: (e: SyntheticEvent<HTMLMediaElement>) => setMediaDuration(e.currentTarget.duration),
    onDurationChange: (e: SyntheticEvent<HTMLMediaElement>) => setMediaDuration(e.currentTarget.duration),
    onTimeUpdate: (e: SyntheticEvent<HTMLMediaElement>) => {
      if (!seeking) setElapsed(e.currentTarget.currentTime);
    },
    onPlay: () => setPlaying(true),
    onPause: () => setPlaying(false),
    onEnded: () => setPlaying(false),
  };

  return (
    <div ref={rootRef} className="media-viewer" role="dialog" aria-modal="true" aria-label={source.title}>
      <header className="media-viewer__bar">
        <h2 className="media-viewer__title">{source.title}</h2>
        <button type="button" className="media-viewer__close" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      <div className="media-viewer__stage">
        {source.type === 'video' ? (
          <video className="media-viewer__video" {...mediaProps} data-testid="player-media" />
        ) : (
          <>
            <audio {...mediaProps} data-testid="player-media" />
            <div className={`media-viewer__visuals${playing ? ' media-viewer__visuals--playing' : ''}`} aria-hidden="true" data-testid="audio-visuals">
              {Array.from({ length: 7 }, (_, i) => (
                <span key={i} className="media-viewer__bar-visual" style={{ animationDelay: `${i * 0.12}s` }} />
              ))}
            </div>
          </>
        )}
        {watermark && <div className="media-viewer__watermark">{watermark}</div>}
      </div>
      <div className="media-viewer__controls">
        <button type="button" className="media-viewer__play" onClick={togglePlay} aria-label={playing ? 'Pause' : 'Play'}>
          {playing ? '❚❚' : '▶'}
        </button>
        <span className="media-viewer__time media-viewer__time--elapsed" data-testid="elapsed">
          {formatDuration(elapsed)}
        </span>
        <input
          type="range"
          className="media-viewer__seek"
          aria-label="Seek"
          min={0}
          max={SLIDER_MAX}
          step={0.1}
          value={played * SLIDER_MAX}
          onPointerDown={() => setSeeking(true)}
          onPointerUp={() => setSeeking(false)}
          onChange={(e) => seek(Number(e.target.value))}
        />
        <span className="media-viewer__time media-viewer__time--total" data-testid="total">
          {formatDuration(duration)}
        </span>
        <button type="button" className="media-viewer__fullscreen" onClick={() => void toggleFullscreen()}>
          Fullscreen
        </button>
      </div>
    </div>
  );
}
