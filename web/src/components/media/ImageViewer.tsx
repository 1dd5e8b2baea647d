//! The full-screen image viewer of spec §2: the image, an optional watermark over it, a close button
//! (and Escape).
import type { ReactNode } from 'react';
import { useEscape } from '../useEscape';

interface Props {
  src: string;
  title: string;
  onClose: () => void;
  watermark?: ReactNode;
}

export function ImageViewer({ src, title, onClose, watermark }: Props) {
  useEscape(onClose);
  return (
    <div className="media-viewer" role="dialog" aria-modal="true" aria-label={title}>
      <header className="media-viewer__bar">
        <h2 className="media-viewer__title">{title}</h2>
        <button type="button" className="media-viewer__close" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      <div className="media-viewer__stage">
        <img className="media-viewer__image" src={src} alt={title} />
        {watermark && <div className="media-viewer__watermark">{watermark}</div>}
      </div>
    </div>
  );
}
