//! The info banner (spec §2): title, type info | error | attention, optional icon and action.
import type { ReactNode } from 'react';

interface Props {
  title: string;
  type?: 'info' | 'error' | 'attention';
  icon?: ReactNode;
  actionLabel?: string;
  onAction?: () => void;
}

export function InfoBanner({ title, type = 'info', icon, actionLabel, onAction }: Props) {
  return (
    <div className={`banner banner--${type}`} role={type === 'error' ? 'alert' : 'status'}>
      {icon && <span className="banner__icon">{icon}</span>}
      <span className="banner__title">{title}</span>
      {actionLabel && (
        <button type="button" className="banner__action" onClick={onAction}>
          {actionLabel}
        </button>
      )}
    </div>
  );
}
