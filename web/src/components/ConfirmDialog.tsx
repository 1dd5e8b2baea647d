//! The generic confirm dialog (spec §2): isOpen, title, subTitle, children, buttons.
import type { ReactNode } from 'react';
import { PrimaryButton } from './PrimaryButton';

export interface DialogButton {
  text: string;
  onClick: () => void;
  isHighlighted?: boolean;
  disabled?: boolean;
}

interface Props {
  isOpen: boolean;
  title: string;
  subTitle?: string;
  children?: ReactNode;
  buttons: DialogButton[];
}

export function ConfirmDialog({ isOpen, title, subTitle, children, buttons }: Props) {
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
