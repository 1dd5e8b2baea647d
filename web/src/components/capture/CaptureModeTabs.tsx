//! The capture modes to choose from (Photo, Video, Audio), as tabs; a screen offers the modes it allows.
import type { CaptureMode } from '../../lib/media/capture';

export const MODE_LABELS: Record<CaptureMode, string> = { photo: 'Photo', video: 'Video', audio: 'Audio' };

interface Props {
  modes: readonly CaptureMode[];
  mode: CaptureMode;
  onChange: (mode: CaptureMode) => void;
}

export function CaptureModeTabs({ modes, mode, onChange }: Props) {
  return (
    <div className="capture__modes" role="tablist" aria-label="What to capture">
      {modes.map((m) => (
        <button
          key={m}
          type="button"
          role="tab"
          aria-selected={m === mode}
          className={`capture__mode${m === mode ? ' capture__mode--active' : ''}`}
          onClick={() => onChange(m)}
        >
          {MODE_LABELS[m]}
        </button>
      ))}
    </div>
  );
}
