// A section's progress comes from the folder's items and their `section`.
import { describe, expect, it } from 'vitest';
import { captureProgress, progressLabel } from './progress';
import type { RentalItem } from './rental';
import { sectionsFor } from './sections';

let n = 0;
function item(section: string | null, extra: Partial<RentalItem> = {}): RentalItem {
  n += 1;
  return {
    id: `i${n}`,
    name: `capture ${n}`,
    mediaType: 'image',
    status: 'verified',
    section,
    capturedAt: `2026-11-21T09:${String(n).padStart(2, '0')}:00Z`,
    expired: false,
    ...extra,
  };
}

const vehicle = sectionsFor('vehicle', 'car');
const byId = (p: ReturnType<typeof captureProgress>, id: string) => p.sections.find((s) => s.section.id === id)!;

describe('section progress', () => {
  it('a car has body, interior, mileage and fuel; a trailer body and interior', () => {
    expect(vehicle.map((s) => s.id)).toEqual(['body', 'interior', 'mileage', 'fuel']);
    expect(sectionsFor('vehicle', 'trailer').map((s) => s.id)).toEqual(['body', 'interior']);
    expect(sectionsFor('hotel').map((s) => s.id)).toEqual(['room', 'bathroom', 'bed', 'furniture', 'appliances', 'damage']);
  });

  it('counts each section\u2019s own items and completes it at its requirement', () => {
    const items = [
      item('body'),
      item('body'),
      item('body', { status: 'awaiting_upload' }),
      item('interior', { mediaType: 'video' }),
      item('mileage', { mediaType: 'video', status: 'uploaded' }),
      item(null),
    ];
    const p = captureProgress(vehicle, items);
    expect(byId(p, 'body')).toMatchObject({ captured: 3, pending: 1, complete: false });
    expect(progressLabel(byId(p, 'body'))).toBe('3 of 4 photos');
    expect(byId(p, 'interior').complete).toBe(true);
    expect(progressLabel(byId(p, 'interior'))).toBe('Done');
    expect(byId(p, 'fuel')).toMatchObject({ captured: 0, complete: false });
    expect(progressLabel(byId(p, 'fuel'))).toBe('0 of 1 video');
    expect({ done: p.done, total: p.total }).toEqual({ done: 2, total: 4 });
  });

  it('leaves rejected captures out and reports them', () => {
    const items = [item('interior', { mediaType: 'video', status: 'rejected' })];
    const interior = byId(captureProgress(vehicle, items), 'interior');
    expect(interior).toMatchObject({ captured: 0, rejected: 1, complete: false, items: [] });
  });

  it('only the section\u2019s own media type counts toward it', () => {
    const hotel = sectionsFor('hotel');
    const items = [item('room', { mediaType: 'video' }), item('room'), item('room'), item('room')];
    const room = byId(captureProgress(hotel, items), 'room');
    expect(room).toMatchObject({ captured: 3, complete: false });
    expect(room.items).toHaveLength(4);
  });

  it('an optional section reads Optional and does not count toward the total', () => {
    const hotel = sectionsFor('hotel');
    const p = captureProgress(hotel, []);
    expect(progressLabel(byId(p, 'damage'))).toBe('Optional');
    expect(p.total).toBe(5);
    expect(progressLabel(byId(captureProgress(hotel, [item('damage')]), 'damage'))).toBe('1 photo');
  });

  it('lists a section\u2019s captures oldest first', () => {
    const late = item('body', { capturedAt: '2026-11-21T12:00:00Z' });
    const early = item('body', { capturedAt: '2026-11-21T08:00:00Z' });
    expect(byId(captureProgress(vehicle, [late, early]), 'body').items.map((i) => i.id)).toEqual([early.id, late.id]);
  });
});
