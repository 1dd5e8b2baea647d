//! The generic confirm dialog (spec §2): isOpen, title, subTitle, children, buttons. Escape runs
//! `onClose`, or else the dialog's way out: its 'Cancel' or 'Back' button, or its only
//! non-highlighted one.
import type { ReactNode } from 'react';
import { PrimaryButton } from './PrimaryButton';
import { useEscape } from './useEscape';

export interface DialogButton {
  text: string;
  onClick: () => void;
  isHighlighted?: boolean;
  disabled?: boolean;
  /** Its call is running: the button reads 'Please wait' (spec §2) and cannot be pressed. */
  loading?: boolean;
}

interface Props {
  isOpen: boolean;
  title: string;
  subTitle?: string;
  children?: ReactNode;
  buttons: DialogButton[];
  /** What Escape does; by default the dialog's cancelling button. */
  onClose?: () => void;
}

const CANCELLING = new Set(['Cancel', 'Back', 'Close', 'No']);

/** The button Escape presses when the caller gives no onClose. */
export function escapeButton(buttons: readonly DialogButton[]): DialogButton | undefined {
  const named = buttons.find((b) => CANCELLING.has(b.text) && !b.disabled && !b.loading);
  if (named) return named;
  const others = buttons.filter((b) => !b.isHighlighted && !b.disabled && !b.loading);
  return others.length === 1 ? others[0] : undefined;
}

export function ConfirmDialog({ isOpen, title, subTitle, children, buttons, onClose }: Props) {
  useEscape(onClose ?? escapeButton(buttons)?.onClick, isOpen);
  if (!isOpen) return null;
  return (
    <div className="dialog-backdrop">
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="dialog-title">
        <h2 id="dialog-title" className="dialog__title">
          {title}
        </h2>
        {subTitle && <p className="dialog__subtitle">{subTitle}</p>}
        {children}
        <div className="dialog__buttons">
          {buttons.map((button) => (
            <PrimaryButton
              key={button.text}
              variant={button.isHighlighted ? 'primary' : 'secondary'}
              disabled={button.disabled}
              loading={button.loading}
              onClick={button.onClick}
            >
              {button.text}
            </PrimaryButton>
          ))}
        </div>
      </div>
    </div>
  );
}
