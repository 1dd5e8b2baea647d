//! The primary button: a loading state reading 'Please wait', a red variant, disabled (spec §2).
import type { ButtonHTMLAttributes } from 'react';

interface Props extends ButtonHTMLAttributes<HTMLButtonElement> {
  loading?: boolean;
  variant?: 'primary' | 'red' | 'secondary';
}

export function PrimaryButton({ loading = false, variant = 'primary', disabled, children, className, ...rest }: Props) {
  return (
    <button
      type="button"
      {...rest}
      className={`btn btn--${variant}${className ? ` ${className}` : ''}`}
      disabled={disabled || loading}
      aria-busy={loading}
    >
      {loading ? 'Please wait' : children}
    </button>
  );
}
