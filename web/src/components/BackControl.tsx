//! The app's one back control: a chevron and what it goes back to ('‹ Settings', or '‹ Back'), as a
//! link when the place is known or a button when going back needs code (a confirmation, history).
//! Its accessible name says where it goes ('Back to Settings', or 'Back'); it is at least 44 CSS
//! px high, above the 24 px of WCAG 2.2 target size.
import { Link } from 'react-router';

type Props = {
  /** What going back shows ('Settings', 'My Files'); 'Back' when the place is not one screen. */
  label?: string;
  className?: string;
} & ({ to: string; onClick?: never } | { onClick: () => void; to?: never });

export function BackControl({ label = 'Back', className, ...where }: Props) {
  const name = label === 'Back' ? 'Back' : `Back to ${label}`;
  const classes = `back-control${className ? ` ${className}` : ''}`;
  const content = (
    <>
      <span className="back-control__chevron" aria-hidden="true">
        ‹
      </span>
      <span className="back-control__label">{label}</span>
    </>
  );
  if (where.to !== undefined) {
    return (
      <Link to={where.to} className={classes} aria-label={name}>
        {content}
      </Link>
    );
  }
  return (
    <button type="button" className={classes} aria-label={name} onClick={where.onClick}>
      {content}
    </button>
  );
}
