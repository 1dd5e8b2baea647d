//! The selection of the delete-files screen: toggle one, select all, and what is still there.

export type Selection = ReadonlySet<string>;

export function toggled(selection: Selection, id: string): Selection {
  const next = new Set(selection);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** Everything selected, or nothing when everything already was (the 'Select all' checkbox). */
export function allToggled(selection: Selection, ids: readonly string[]): Selection {
  return allSelected(selection, ids) ? new Set() : new Set(ids);
}

export function allSelected(selection: Selection, ids: readonly string[]): boolean {
  return ids.length > 0 && ids.every((id) => selection.has(id));
}

/** The selection without ids that are no longer listed (deleted elsewhere). */
export function pruned(selection: Selection, ids: readonly string[]): Selection {
  const listed = new Set(ids);
  const next = [...selection].filter((id) => listed.has(id));
  return next.length === selection.size ? selection : new Set(next);
}
