//! Test helpers of the files feature: a store with the real API against a fetch answered by a
//! table of routes, and a data router (useBlocker needs one) around the screen under test.
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { api } from '../../../lib/api/api';
import type { FileItem } from '../model/menus';
import { lastKnownSlice } from '../../../lib/offline/lastKnownSlice';
import { loginInfoSlice, tokensReceived } from '../../../lib/session/loginInfoSlice';
import { snackbarSlice } from '../../../lib/ui/uiSlice';

export function makeTestStore() {
  const store = configureStore({
    reducer: combineReducers({ [api.reducerPath]: api.reducer, loginInfo: loginInfoSlice.reducer, snackbar: snackbarSlice.reducer, lastKnown: lastKnownSlice.reducer }),
    middleware: (getDefault) => getDefault({ serializableCheck: false }).concat(api.middleware),
  });
  store.dispatch(tokensReceived({ access: 'a', refresh: 'r' }));
  return store;
}
export type TestStore = ReturnType<typeof makeTestStore>;

export interface Call {
  method: string;
  path: string;
}

/**
 * Answers the app's requests from `routes` (keyed 'METHOD /path/'), recording every call; an
 * unknown request is a 404.
 */
export function serveApi(routes: Record<string, unknown | ((call: Call) => unknown)>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
      const url = new URL(request.url, 'http://localhost');
      const call = { method: request.method, path: url.pathname.replace(/^\/api\//, '') };
      calls.push(call);
      const route = routes[`${call.method} ${call.path}`];
      if (route === undefined) return new Response(JSON.stringify({ errors: [{ message: 'Not found.', code: 'not_found' }] }), { status: 404 });
      const body = typeof route === 'function' ? (route as (c: Call) => unknown)(call) : route;
      return body === null ? new Response(null, { status: 204 }) : Response.json(body);
    }),
  );
  // Node's Request refuses the app's relative '/api/...' URLs: resolve them against a test origin.
  class RelativeRequest extends Request {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, 'http://localhost').href : input, init);
    }
  }
  vi.stubGlobal('Request', RelativeRequest);
  return calls;
}

export function renderRoutes(store: TestStore, routes: RouteObject[], initialEntry: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...view, router };
}

export const renderWithStore = (store: TestStore, ui: ReactElement) => render(<Provider store={store}>{ui}</Provider>);

/** A file as the API answers it (snake_case), with `overrides`. */
export function apiItem(overrides: Partial<Record<string, unknown>> = {}) {
  return {
    id: 'item-1',
    folder_id: 'folder-1',
    name: 'Front bumper scratch',
    media_type: 'image',
    mime_type: 'image/jpeg',
    file_size: 123456,
    sha256: 'a'.repeat(64),
    status: 'verified',
    rejection_reason: '',
    uploaded: true,
    city: 'Berlin',
    address: 'Berlin, BE, DE',
    country_code: 'DE',
    latitude: 52.52,
    longitude: 13.405,
    duration: null,
    captured_at: '2026-03-04T10:05:00Z',
    uploaded_at: '2026-03-04T10:06:00Z',
    expiration_date: '2027-03-04T10:00:00Z',
    expired: false,
    expire_soon: false,
    thumbnail: 'http://s3.local/thumb.jpg',
    temporary_file_url: 'http://s3.local/file.jpg',
    can_retake: true,
    ...overrides,
  };
}

/** The camelCase item the app uses. */
export function item(overrides: Partial<FileItem> = {}): FileItem {
  return {
    id: 'item-1',
    folderId: 'folder-1',
    name: 'Front bumper scratch',
    mediaType: 'image',
    mimeType: 'image/jpeg',
    fileSize: 123456,
    sha256: 'a'.repeat(64),
    status: 'verified',
    rejectionReason: '',
    uploaded: true,
    city: 'Berlin',
    address: 'Berlin, BE, DE',
    countryCode: 'DE',
    latitude: 52.52,
    longitude: 13.405,
    duration: null,
    capturedAt: '2026-03-04T10:05:00Z',
    uploadedAt: '2026-03-04T10:06:00Z',
    expirationDate: '2027-03-04T10:00:00Z',
    expired: false,
    expireSoon: false,
    thumbnail: 'http://s3.local/thumb.jpg',
    temporaryFileUrl: 'http://s3.local/file.jpg',
    canRetake: true,
    ...overrides,
  };
}

export const apiFolder = (overrides: Partial<Record<string, unknown>> = {}) => ({
  id: 'folder-1',
  name: 'Car rental',
  file_count: 1,
  used_bytes: 123456,
  created_at: '2026-03-04T10:00:00Z',
  expiration_date: '2027-03-04T10:00:00Z',
  expired: false,
  expire_soon: false,
  ...overrides,
});
