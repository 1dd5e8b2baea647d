// spec §2 "Other widgets" (tag chips), §4: 'EXPIRES SOON' with the date, or 'Expired'.
import { describe, expect, it } from 'vitest';
import { storageTag } from './tags';

describe('storage tag', () => {
  it("reads 'Expired' (grey) once the storage date has passed", () => {
    expect(storageTag({ expired: true, expireSoon: true, expirationDate: '2026-01-01T00:00:00Z' }, 'UTC')).toEqual({ label: 'Expired', tone: 'grey' });
  });

  it("reads 'EXPIRES SOON' (red) with the date 'MMM D, YYYY' when it is near", () => {
    expect(storageTag({ expired: false, expireSoon: true, expirationDate: '2026-11-21T10:00:00Z' }, 'UTC')).toEqual({
      label: 'EXPIRES SOON',
      tone: 'red',
      date: 'Nov 21, 2026',
    });
  });

  it('shows nothing while the storage date is far', () => {
    expect(storageTag({ expired: false, expireSoon: false, expirationDate: '2027-11-21T10:00:00Z' })).toBeUndefined();
  });
});
