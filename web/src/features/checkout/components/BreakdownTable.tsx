//! A price breakdown: price, service fee, processing fee, wallet saving, total; by card, from the
//! wallet, or both side by side.
import { formatMoney } from '../../../lib/format/money';
import type { Breakdown } from '../../../lib/api/payments';
import { breakdownRows, type BreakdownRow, type PayWith } from '../model/checkout';

interface Props {
  breakdown: Breakdown;
  /** One way of paying, or both columns. */
  via: PayWith | 'both';
  label?: string;
}

export function BreakdownTable({ breakdown, via, label = 'Price breakdown' }: Props) {
  const columns: PayWith[] = via === 'both' ? ['card', 'wallet'] : [via];
  const rows = columns.map((c) => breakdownRows(breakdown, c));
  const labels = breakdownRows(breakdown, 'card');
  return (
    <table className="checkout-breakdown" aria-label={label}>
      {via === 'both' && (
        <thead>
          <tr>
            <th scope="col"></th>
            <th scope="col">By card</th>
            <th scope="col">From the wallet</th>
          </tr>
        </thead>
      )}
      <tbody>
        {labels.map((row, i) => (
          <tr key={row.label} className={row.total ? 'checkout-breakdown__total' : undefined}>
            <th scope="row">{row.label}</th>
            {rows.map((column, c) => (
              <td key={c} data-testid={`${columns[c]}-${row.label.toLowerCase().replace(/\s+/g, '-')}`}>
                {formatMoney(column[i]?.amount ?? 0)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Rows of one column (a transaction as charged). */
export function RowsTable({ rows, label }: { rows: BreakdownRow[]; label: string }) {
  return (
    <table className="checkout-breakdown" aria-label={label}>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label} className={row.total ? 'checkout-breakdown__total' : undefined}>
            <th scope="row">{row.label}</th>
            <td>{formatMoney(row.amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
