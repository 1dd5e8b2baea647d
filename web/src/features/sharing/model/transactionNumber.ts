//! A recipient's transaction number as typed (any case, spaces, dashes left out) and as the
//! service issues it: 'EVD-' and two groups of four letters or digits, upper case (EVD-7K3Q-9XTM).

const CANONICAL = /^EVD-[A-Z0-9]{4}-[A-Z0-9]{4}$/;
const LOOSE = /^EVD-?([A-Z0-9]{4})-?([A-Z0-9]{4})$/;

/** Upper case without spaces, with the dashes put back when they were left out. */
export function normaliseTransactionNumber(typed: string): string {
  const upper = typed.replace(/\s+/g, '').toUpperCase();
  const parts = LOOSE.exec(upper);
  return parts ? `EVD-${parts[1]}-${parts[2]}` : upper;
}

export const isTransactionNumber = (value: string) => CANONICAL.test(value);
