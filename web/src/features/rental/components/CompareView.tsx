//! A Return beside its Pick-up: for each section, the Pick-up's captures and the Return's in two
//! columns, each with its capture time.
import { compareRows } from '../model/compare';
import { momentLabel, type RentalItem, type RentalKind } from '../model/rental';
import type { SectionDef } from '../model/sections';
import { ItemThumb } from './ItemThumb';

interface Props {
  kind: RentalKind;
  sections: readonly SectionDef[];
  pickupItems: readonly RentalItem[];
  returnItems: readonly RentalItem[];
}

function Column({ label, items }: { label: string; items: RentalItem[] }) {
  return (
    <div className="rental-compare__col">
      <h3 className="rental-compare__col-title">{label}</h3>
      {items.length === 0 ? (
        <p className="muted">No captures</p>
      ) : (
        <ul className="rental-compare__items" aria-label={`${label} captures`}>
          {items.map((item) => (
            <li key={item.id}>
              <ItemThumb item={item} showTime />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function CompareView({ kind, sections, pickupItems, returnItems }: Props) {
  const rows = compareRows(sections, pickupItems, returnItems);
  return (
    <div className="rental-compare">
      {rows.map((row) => {
        const headingId = `rental-compare-${row.section?.id ?? 'other'}`;
        return (
          <section key={headingId} className="rental-compare__row" aria-labelledby={headingId}>
            <h2 id={headingId} className="rental-compare__title">
              {row.title}
            </h2>
            <div className="rental-compare__cols">
              <Column label={momentLabel(kind, 'pickup')} items={row.pickup} />
              <Column label={momentLabel(kind, 'return')} items={row.ret} />
            </div>
          </section>
        );
      })}
    </div>
  );
}
