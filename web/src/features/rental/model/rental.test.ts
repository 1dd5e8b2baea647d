// Rental folders: their names follow spec §5 "File name"; a Return links to an earlier Pick-up.
import { describe, expect, it } from 'vitest';
import { fileNameError } from '../../../lib/validation/fileName';
import { evidenceCaptureUrl, momentLabel, pickupFolders, rentalFolderName, VEHICLE_TYPES, rentalOf } from './rental';
import type { Folder } from '../../../lib/api/evidence';

const base = { expireSoon: false, expired: false, fileCount: 0, usedBytes: 0 };

describe('rental folders', () => {
  it('names a new capture by what and when, with a name the file-name rule accepts', () => {
    const now = new Date(2026, 10, 21, 12, 0);
    expect(rentalFolderName('vehicle', 'pickup', 'car', now)).toBe('Car Pick-up, Nov 21, 2026');
    expect(rentalFolderName('hotel', 'return', null, now)).toBe('Hotel Check-out, Nov 21, 2026');
    for (const v of VEHICLE_TYPES) {
      for (const m of ['pickup', 'return'] as const) expect(fileNameError(rentalFolderName('vehicle', m, v.id, now))).toBeUndefined();
    }
  });

  it('calls a hotel\u2019s moments check-in and check-out', () => {
    expect([momentLabel('vehicle', 'pickup'), momentLabel('vehicle', 'return')]).toEqual(['Pick-up', 'Return']);
    expect([momentLabel('hotel', 'pickup'), momentLabel('hotel', 'return')]).toEqual(['Check-in', 'Check-out']);
  });

  it('offers a Return only the Pick-ups of its own kind, newest first', () => {
    const folders: (Folder & { rental: unknown })[] = [
      { ...base, id: 'old', name: 'old', createdAt: '2026-10-01T00:00:00Z', rental: { kind: 'vehicle', vehicleType: 'car', moment: 'pickup' } },
      { ...base, id: 'ret', name: 'ret', createdAt: '2026-10-02T00:00:00Z', rental: { kind: 'vehicle', vehicleType: 'car', moment: 'return', pickupFolderId: 'old' } },
      { ...base, id: 'hotel', name: 'hotel', createdAt: '2026-10-03T00:00:00Z', rental: { kind: 'hotel', moment: 'pickup' } },
      { ...base, id: 'plain', name: 'plain', createdAt: '2026-10-04T00:00:00Z', rental: null },
      { ...base, id: 'new', name: 'new', createdAt: '2026-11-01T00:00:00Z', rental: { kind: 'vehicle', vehicleType: 'suv', moment: 'pickup' } },
    ];
    expect(pickupFolders(folders, 'vehicle').map((f) => f.folder.id)).toEqual(['new', 'old']);
    expect(pickupFolders(folders, 'hotel').map((f) => f.folder.id)).toEqual(['hotel']);
  });

  it('opens the capture screen for the folder and section, returning here after', () => {
    const url = new URL(evidenceCaptureUrl('f-1', 'interior', 'video', '/vehicle-rental/capture?folderId=f-1'), 'http://x');
    expect(url.pathname).toBe('/evidence');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      situation: 'f-1',
      section: 'interior',
      mode: 'video',
      returnTo: '/vehicle-rental/capture?folderId=f-1',
    });
  });
});

describe('rentalOf', () => {
  const folder = (rental: unknown) => ({ ...base, id: 'f', name: 'f', rental }) as Folder;

  it('reads a folder\u2019s rental and refuses what it does not know', () => {
    expect(rentalOf(folder({ kind: 'vehicle', vehicleType: 'suv', moment: 'return', pickupFolderId: 'p' }))).toEqual({
      kind: 'vehicle',
      vehicleType: 'suv',
      moment: 'return',
      pickupFolderId: 'p',
    });
    expect(rentalOf(folder({ kind: 'hotel', moment: 'pickup' }))).toEqual({ kind: 'hotel', vehicleType: null, moment: 'pickup', pickupFolderId: null });
    expect(rentalOf(folder(null))).toBeNull();
    expect(rentalOf(folder(undefined))).toBeNull();
    expect(rentalOf(folder({ kind: 'boat', moment: 'pickup' }))).toBeNull();
    expect(rentalOf(folder({ kind: 'vehicle', moment: 'later' }))).toBeNull();
    expect(rentalOf(folder({ kind: 'vehicle', vehicleType: 'rocket', moment: 'pickup' }))?.vehicleType).toBeNull();
  });
});
