//! Rendering a screen as the app does: inside the store's Provider and a data router (useBlocker
//! needs one), optionally behind the app's access guard and with an upload queue.
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, Outlet, RouterProvider, type InitialEntry, type RouteObject } from 'react-router';
import { Guard } from '../app/Guard';
import type { UploadQueue } from '../lib/upload/queue';
import { UploadQueueProvider } from '../lib/upload/uploadQueueContext';
import type { TestStore } from './store';

export interface RenderOptions {
  /** Behind the app's access guard, as every screen of the app is. */
  guarded?: boolean;
  /** The upload queue the capture screens take from context. */
  uploadQueue?: UploadQueue;
}

function Providers({ store, uploadQueue, children }: { store: TestStore; uploadQueue?: UploadQueue; children: ReactNode }) {
  return <Provider store={store}>{uploadQueue ? <UploadQueueProvider value={uploadQueue}>{children}</UploadQueueProvider> : children}</Provider>;
}

/** Renders `routes` at `initialEntry` in a memory data router; returns the router too. */
export function renderAt(store: TestStore, routes: RouteObject[], initialEntry: InitialEntry, { guarded = false, uploadQueue }: RenderOptions = {}) {
  const tree = guarded
    ? [
        {
          element: (
            <Guard>
              <Outlet />
            </Guard>
          ),
          children: routes,
        },
      ]
    : routes;
  const router = createMemoryRouter(tree, { initialEntries: [initialEntry] });
  const view = render(
    <Providers store={store} uploadQueue={uploadQueue}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router };
}

/** Renders `ui` inside the store's Provider only (no router). */
export function renderWithStore(store: TestStore, ui: ReactElement, { uploadQueue }: Pick<RenderOptions, 'uploadQueue'> = {}) {
  return render(
    <Providers store={store} uploadQueue={uploadQueue}>
      {ui}
    </Providers>,
  );
}
