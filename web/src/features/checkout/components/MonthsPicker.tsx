//! The storage months to buy, from the pricing configuration's options.
const label = (months: number) => `${months} ${months === 1 ? 'month' : 'months'}`;

interface Props {
  options: number[];
  value: number;
  onChange: (months: number) => void;
}

export function MonthsPicker({ options, value, onChange }: Props) {
  return (
    <div className="checkout-months" role="group" aria-label="Months">
      {options.map((months) => (
        <button key={months} type="button" className="checkout-month" aria-pressed={months === value} onClick={() => onChange(months)}>
          {label(months)}
        </button>
      ))}
    </div>
  );
}

/** The options offered when the pricing configuration has none. */
export const DEFAULT_MONTHS = [1, 3, 6, 12];
