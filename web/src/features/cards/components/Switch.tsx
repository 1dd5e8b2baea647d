//! An on/off switch (a checkbox with role switch).
import { forwardRef, useId, type InputHTMLAttributes } from 'react';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: string;
}

export const Switch = forwardRef<HTMLInputElement, Props>(function Switch({ label, ...rest }, ref) {
  const id = useId();
  return (
    <div className="switch">
      <label htmlFor={id}>{label}</label>
      <input id={id} ref={ref} type="checkbox" role="switch" {...rest} />
    </div>
  );
});
