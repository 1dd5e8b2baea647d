//! The rename dialog, loaded when it opens: its validation (zod) stays out of the lists' first load.
import { lazy, Suspense, type ComponentProps } from 'react';

const RenameDialog = lazy(() => import('./RenameDialog').then((module) => ({ default: module.RenameDialog })));

export function LazyRenameDialog(props: ComponentProps<typeof RenameDialog>) {
  return (
    <Suspense fallback={null}>
      <RenameDialog {...props} />
    </Suspense>
  );
}
