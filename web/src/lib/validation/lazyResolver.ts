//! A form resolver loaded on the form's first validation: the screen renders without the
//! validation library (zod), which arrives while the user types. The service worker precaches
//! the chunk, so this works offline as well.
import type { FieldValues, Resolver } from 'react-hook-form';

export function lazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>): Resolver<T> {
  let loading: Promise<Resolver<T>> | undefined;
  return async (values, context, options) => {
    loading ??= load().catch((error: unknown) => {
      // A failed load (offline before the precache finished) is tried again on the next validation.
      loading = undefined;
      throw error;
    });
    return (await loading)(values, context, options);
  };
}
