//! Test support: the app's store and a router around the rental screens, in front of a fake
//! evidence API (snake_case JSON, as the gateway answers) served through a mocked `fetch`.
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { vi } from 'vitest';
import { api } from '../../../lib/api/api';
import { loginInfoSlice, tokensReceived } from '../../../lib/session/loginInfoSlice';
import { snackbarSlice, uiSlice } from '../../../lib/ui/uiSlice';
import { RentalCapturePage } from '../routes/RentalCapturePage';
import { RentalStartPage } from '../routes/RentalStartPage';

const ORIGIN = 'http://localhost';

// Node's Request refuses the app's relative '/api/...' URLs: resolve them against a test origin.
class RelativeRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, ORIGIN).href : input, init);
  }
}

export interface FakeFolder {
  id: string;
  name: string;
  created_at: string;
  rental: { kind: 'vehicle' | 'hotel'; vehicle_type: string | null; moment: 'pickup' | 'return'; pickup_folder_id: string | null } | null;
}

export interface FakeItem {
  id: string;
  folder_id: string;
  name: string;
  media_type: 'image' | 'video' | 'audio';
  status: 'awaiting_upload' | 'uploaded' | 'verified' | 'rejected';
  section: string | null;
  captured_at: string;
  thumbnail: string | null;
}

export function folder(id: string, rental: FakeFolder['rental'], name = `Folder ${id}`, createdAt = '2026-11-20T10:00:00Z'): FakeFolder {
  return { id, name, created_at: createdAt, rental };
}

export function item(id: string, folderId: string, section: string | null, extra: Partial<FakeItem> = {}): FakeItem {
  return {
    id,
    folder_id: folderId,
    name: `capture-${id}`,
    media_type: 'image',
    status: 'verified',
    section,
    captured_at: '2026-11-21T09:05:00Z',
    thumbnail: `https://s3.test/${id}.jpg`,
    ...extra,
  };
}

const folderJson = (f: FakeFolder) => ({
  ...f,
  expiration_date: '2027-11-21T00:00:00Z',
  expire_soon: false,
  expired: false,
  file_count: 0,
  used_bytes: 0,
});

const itemJson = (i: FakeItem) => ({
  address: '',
  city: '',
  country_code: '',
  expire_soon: false,
  expired: false,
  file_size: 1000,
  mime_type: i.media_type === 'video' ? 'video/webm' : 'image/jpeg',
  rejection_reason: '',
  sha256: '0'.repeat(64),
  uploaded: i.status !== 'awaiting_upload',
  ...i,
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fake evidence API over `folders` and `items`; `created` collects the bodies of folder creates. */
export function fakeEvidence(folders: FakeFolder[], items: FakeItem[] = []) {
  const created: Record<string, unknown>[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new RelativeRequest(input, init);
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/api\//, '');
    if (request.method === 'POST' && path === 'evidence/folders/create/') {
      const body = JSON.parse(await request.text()) as { name: string; client_id: string; rental: Record<string, string> };
      created.push(body);
      const made = folder(`new-${created.length}`, {
        kind: body.rental.kind as 'vehicle',
        vehicle_type: body.rental.vehicle_type ?? null,
        moment: body.rental.moment as 'pickup',
        pickup_folder_id: body.rental.pickup_folder_id ?? null,
      }, body.name);
      folders.push(made);
      return json(201, folderJson(made));
    }
    if (path === 'evidence/folders/') {
      const pickup = url.searchParams.get('pickup_folder_id');
      const list = pickup ? folders.filter((f) => f.rental?.pickup_folder_id === pickup) : folders;
      return json(200, { folders: list.map(folderJson) });
    }
    const itemsMatch = /^evidence\/folders\/([^/]+)\/items\/$/.exec(path);
    if (itemsMatch) return json(200, { items: items.filter((i) => i.folder_id === itemsMatch[1]).map(itemJson) });
    const folderMatch = /^evidence\/folders\/([^/]+)\/$/.exec(path);
    if (folderMatch) {
      const found = folders.find((f) => f.id === folderMatch[1]);
      return found ? json(200, folderJson(found)) : json(404, { errors: [{ message: 'Not found.', code: 'not_found' }] });
    }
    return json(404, { errors: [{ message: `no fake for ${request.method} ${path}` }] });
  });
  vi.stubGlobal('Request', RelativeRequest);
  vi.stubGlobal('fetch', fetchMock);
  return { created, fetchMock };
}

function makeStore() {
  const store = configureStore({
    reducer: combineReducers({
      [api.reducerPath]: api.reducer,
      loginInfo: loginInfoSlice.reducer,
      ui: uiSlice.reducer,
      snackbar: snackbarSlice.reducer,
    }),
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  store.dispatch(tokensReceived({ access: 'access', refresh: 'refresh' }));
  return store;
}

/** Where the app went outside the rental screens (the capture screen, home). */
function Elsewhere() {
  const location = useLocation();
  return <p data-testid="elsewhere">{`${location.pathname}${location.search}`}</p>;
}

/** Renders the rental routes at `url` with a fresh store (or `store`, to keep state across renders). */
export function renderRental(url: string, store = makeStore()) {
  const router = createMemoryRouter(
    [
      { path: '/vehicle-rental', element: <RentalStartPage kind="vehicle" /> },
      { path: '/vehicle-rental/capture', element: <RentalCapturePage kind="vehicle" /> },
      { path: '/hotel-rental', element: <RentalStartPage kind="hotel" /> },
      { path: '/hotel-rental/capture', element: <RentalCapturePage kind="hotel" /> },
      { path: '*', element: <Elsewhere /> },
    ],
    { initialEntries: [url] },
  );
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...view, router, store };
}
