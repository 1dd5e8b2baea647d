// Maps: files with coordinates get markers, the rest are listed; a folder sits at its files' centre.
import { describe, expect, it } from 'vitest';
import { folderPosition, groupByPosition, splitByLocation } from './geo';

describe('map positions', () => {
  it('splits files with and without coordinates', () => {
    const items = [
      { id: 'a', latitude: 52.5, longitude: 13.4 },
      { id: 'b', latitude: null, longitude: null },
      { id: 'c', latitude: 0, longitude: 0 },
      { id: 'd', latitude: 200, longitude: 0 },
    ];
    const { located, unlocated } = splitByLocation(items);
    expect(located.map((l) => [l.value.id, l.position])).toEqual([
      ['a', [52.5, 13.4]],
      ['c', [0, 0]],
    ]);
    expect(unlocated.map((i) => i.id)).toEqual(['b', 'd']);
  });

  it('puts a folder at the centre of its located files, or nowhere', () => {
    expect(folderPosition([{ latitude: 10, longitude: 20 }, { latitude: 20, longitude: 40 }, { latitude: null, longitude: null }])).toEqual([15, 30]);
    expect(folderPosition([{ latitude: null, longitude: null }])).toBeUndefined();
  });

  it('groups files taken at one spot into one marker, keeping the order', () => {
    const groups = groupByPosition([
      { value: 'a', position: [52.5, 13.4] },
      { value: 'b', position: [48.1, 11.6] },
      { value: 'c', position: [52.500001, 13.400001] },
    ]);
    expect(groups).toEqual([
      { position: [52.5, 13.4], values: ['a', 'c'] },
      { position: [48.1, 11.6], values: ['b'] },
    ]);
  });
});
