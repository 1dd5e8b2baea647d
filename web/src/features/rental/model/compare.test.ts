// A Return beside its Pick-up: rows per section, each folder's captures in its own column.
import { describe, expect, it } from 'vitest';
import { compareRows } from './compare';
import type { RentalItem } from './rental';
import { sectionsFor } from './sections';

const item = (id: string, section: string | null, capturedAt: string, status = 'verified'): RentalItem => ({
  id,
  name: id,
  mediaType: 'image',
  status,
  section,
  capturedAt,
  expired: false,
});

describe('compare rows', () => {
  const sections = sectionsFor('vehicle', 'car');

  it('pairs each section\u2019s Pick-up and Return captures, oldest first, in section order', () => {
    const pickup = [item('p2', 'body', '2026-11-01T10:05:00Z'), item('p1', 'body', '2026-11-01T10:00:00Z'), item('p3', 'fuel', '2026-11-01T10:09:00Z')];
    const ret = [item('r1', 'body', '2026-11-08T18:00:00Z'), item('r2', 'interior', '2026-11-08T18:03:00Z')];
    const rows = compareRows(sections, pickup, ret);
    expect(rows.map((r) => r.title)).toEqual(['Body', 'Interior', 'Mileage', 'Fuel']);
    expect(rows[0]?.pickup.map((i) => i.id)).toEqual(['p1', 'p2']);
    expect(rows[0]?.ret.map((i) => i.id)).toEqual(['r1']);
    expect(rows[1]).toMatchObject({ pickup: [], ret: [{ id: 'r2' }] });
    expect(rows[2]).toMatchObject({ pickup: [], ret: [] });
    expect(rows[3]).toMatchObject({ pickup: [{ id: 'p3' }], ret: [] });
  });

  it('adds an Other row only for captures of no known section, and leaves rejected ones out', () => {
    expect(compareRows(sections, [item('x', 'body', '2026-11-01T10:00:00Z', 'rejected')], [])[0]?.pickup).toEqual([]);
    expect(compareRows(sections, [], []).map((r) => r.title)).not.toContain('Other');
    const rows = compareRows(sections, [item('loose', null, '2026-11-01T10:00:00Z')], [item('odd', 'roof', '2026-11-08T10:00:00Z')]);
    expect(rows.at(-1)).toMatchObject({ section: null, title: 'Other', pickup: [{ id: 'loose' }], ret: [{ id: 'odd' }] });
  });
});
