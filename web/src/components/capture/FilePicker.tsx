//! Choosing a file already on the device instead of capturing one: the picker offers the media of
//! the modes allowed, and hands over the file as a Recording (captured when the file was last changed).
import { useId, useState } from 'react';
import { MEDIA_TYPE_OF, type CaptureMode } from '../../lib/media/capture';
import type { Recording } from './Recorder';

export const WRONG_KIND = 'This kind of file cannot be added here.';

const ACCEPT: Record<CaptureMode, string> = { photo: 'image/*', video: 'video/*', audio: 'audio/*' };

/** The mode of a picked file by its type, when it is one of `modes`. */
export function modeOfFile(type: string, modes: readonly CaptureMode[]): CaptureMode | undefined {
  const kind = type.split('/')[0];
  return modes.find((mode) => MEDIA_TYPE_OF[mode] === kind);
}

interface Props {
  modes: readonly CaptureMode[];
  onPicked: (recording: Recording) => void;
  disabled?: boolean;
  label?: string;
}

export function FilePicker({ modes, onPicked, disabled = false, label = 'Choose a File' }: Props) {
  const id = useId();
  const [error, setError] = useState<string>();
  return (
    <div className="file-picker">
      <label htmlFor={id} className={`btn btn--secondary${disabled ? ' btn--disabled' : ''}`}>
        {label}
      </label>
      <input
        id={id}
        className="file-picker__input"
        type="file"
        accept={modes.map((mode) => ACCEPT[mode]).join(',')}
        disabled={disabled}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file) return;
          const mode = modeOfFile(file.type, modes);
          if (!mode) {
            setError(WRONG_KIND);
            return;
          }
          setError(undefined);
          onPicked({
            mode,
            blob: file,
            mimeType: file.type,
            capturedAt: new Date(file.lastModified || Date.now()),
            ...(mode === 'photo' && { preview: file }),
          });
        }}
      />
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
