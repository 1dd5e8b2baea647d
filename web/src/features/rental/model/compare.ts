//! A Return beside its Pick-up: for each section, the Pick-up's captures and the Return's.
import { byCaptureTime } from './progress';
import type { RentalItem } from './rental';
import type { SectionDef } from './sections';

export interface CompareRow {
  /** The section, or null for captures of no known section (taken outside the guided flow). */
  section: SectionDef | null;
  title: string;
  pickup: RentalItem[];
  ret: RentalItem[];
}

const counts = (item: RentalItem) => item.status !== 'rejected';

/**
 * One row per section, in the capture's order, each with both folders' captures oldest first;
 * then an 'Other' row when either folder has captures without a known section. Rejected captures
 * prove nothing and are left out.
 */
export function compareRows(sections: readonly SectionDef[], pickup: readonly RentalItem[], ret: readonly RentalItem[]): CompareRow[] {
  const known = new Set<string>(sections.map((s) => s.id));
  const of = (items: readonly RentalItem[], id: string) => items.filter((i) => counts(i) && i.section === id).sort(byCaptureTime);
  const rows: CompareRow[] = sections.map((section) => ({
    section,
    title: section.title,
    pickup: of(pickup, section.id),
    ret: of(ret, section.id),
  }));
  const other = (items: readonly RentalItem[]) => items.filter((i) => counts(i) && !known.has(i.section ?? '')).sort(byCaptureTime);
  const otherRow = { section: null, title: 'Other', pickup: other(pickup), ret: other(ret) };
  if (otherRow.pickup.length > 0 || otherRow.ret.length > 0) rows.push(otherRow);
  return rows;
}
