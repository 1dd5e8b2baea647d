//! An on/off switch (a checkbox with role switch), with an optional hint under it that says why
//! it is off or what it does (announced as the switch's description).
import { forwardRef, useId, type InputHTMLAttributes } from 'react';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: string;
  hint?: string;
}

export const Switch = forwardRef<HTMLInputElement, Props>(function Switch({ label, hint, ...rest }, ref) {
  const id = useId();
  return (
    <div className="switch">
      <div className="switch__row">
        <label htmlFor={id}>{label}</label>
        <input id={id} ref={ref} type="checkbox" role="switch" aria-describedby={hint ? `${id}-hint` : undefined} {...rest} />
      </div>
      {hint && (
        <p id={`${id}-hint`} className="switch__hint">
          {hint}
        </p>
      )}
    </div>
  );
});
