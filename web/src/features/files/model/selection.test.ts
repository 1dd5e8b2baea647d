// The delete-files selection: toggling, select all, files that disappear.
import { describe, expect, it } from 'vitest';
import { allSelected, allToggled, pruned, toggled } from './selection';

describe('delete-files selection', () => {
  it('toggles one file on and off', () => {
    const one = toggled(new Set(), 'a');
    expect([...one]).toEqual(['a']);
    expect(toggled(one, 'a').size).toBe(0);
  });

  it('selects all, and clears when all were selected', () => {
    const all = allToggled(new Set(['a']), ['a', 'b', 'c']);
    expect(allSelected(all, ['a', 'b', 'c'])).toBe(true);
    expect(allToggled(all, ['a', 'b', 'c']).size).toBe(0);
  });

  it('is not all selected when there is nothing to select', () => {
    expect(allSelected(new Set(), [])).toBe(false);
  });

  it('drops files that are no longer listed', () => {
    const selection = new Set(['a', 'gone']);
    expect([...pruned(selection, ['a', 'b'])]).toEqual(['a']);
    expect(pruned(selection, ['a', 'gone'])).toBe(selection);
  });
});
