//! A bottom sheet (max width 598 px, spec §9). Closes with its Close button, a tap beside it, or
//! Escape.
import type { ReactNode } from 'react';
import { useEscape } from './useEscape';

interface Props {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}

export function BottomSheet({ open, title, onClose, children }: Props) {
  useEscape(onClose, open);
  if (!open) return null;
  return (
    <div className="sheet-backdrop" onClick={onClose}>
      <div className="sheet" role="dialog" aria-modal="true" aria-label={title} onClick={(e) => e.stopPropagation()}>
        <h2 className="sheet__title">{title}</h2>
        {children}
        <button type="button" className="btn btn--secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
