//! Test support: the rental screens in a router with the app's reducer, in front of a fake
//! evidence API (snake_case JSON, as the gateway answers) served through the harness's fetch table.
import { useLocation } from 'react-router';
import { answer, makeTestStore, renderAt, serve } from '../../../testing';
import { RentalCapturePage } from '../routes/RentalCapturePage';
import { RentalStartPage } from '../routes/RentalStartPage';

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

const notFound = (message: string) => answer(404, { errors: [{ message, code: 'not_found' }] });

/** A fake evidence API over `folders` and `items`; `created` collects the bodies of folder creates. */
export function fakeEvidence(folders: FakeFolder[], items: FakeItem[] = []) {
  const created: Record<string, unknown>[] = [];
  const calls = serve(({ method, path, search, body }) => {
    if (method === 'POST' && path === 'evidence/folders/create/') {
      const wanted = body as { name: string; client_id: string; rental: Record<string, string> };
      created.push(wanted);
      const made = folder(
        `new-${created.length}`,
        {
          kind: wanted.rental.kind as 'vehicle',
          vehicle_type: wanted.rental.vehicle_type ?? null,
          moment: wanted.rental.moment as 'pickup',
          pickup_folder_id: wanted.rental.pickup_folder_id ?? null,
        },
        wanted.name,
      );
      folders.push(made);
      return answer(201, folderJson(made));
    }
    if (path === 'evidence/folders/') {
      const pickup = new URLSearchParams(search).get('pickup_folder_id');
      const list = pickup ? folders.filter((f) => f.rental?.pickup_folder_id === pickup) : folders;
      return { folders: list.map(folderJson) };
    }
    const itemsMatch = /^evidence\/folders\/([^/]+)\/items\/$/.exec(path);
    if (itemsMatch) return { items: items.filter((i) => i.folder_id === itemsMatch[1]).map(itemJson) };
    const folderMatch = /^evidence\/folders\/([^/]+)\/$/.exec(path);
    if (folderMatch) {
      const found = folders.find((f) => f.id === folderMatch[1]);
      return found ? folderJson(found) : notFound('Not found.');
    }
    return notFound(`no fake for ${method} ${path}`);
  });
  return { created, calls };
}

/** Where the app went outside the rental screens (the capture screen, home). */
function Elsewhere() {
  const location = useLocation();
  return <p data-testid="elsewhere">{`${location.pathname}${location.search}`}</p>;
}

/** Renders the rental routes at `url` with a fresh store (or `store`, to keep state across renders). */
export function renderRental(url: string, store = makeTestStore()) {
  const view = renderAt(
    store,
    [
      { path: '/vehicle-rental', element: <RentalStartPage kind="vehicle" /> },
      { path: '/vehicle-rental/capture', element: <RentalCapturePage kind="vehicle" /> },
      { path: '/hotel-rental', element: <RentalStartPage kind="hotel" /> },
      { path: '/hotel-rental/capture', element: <RentalCapturePage kind="hotel" /> },
      { path: '*', element: <Elsewhere /> },
    ],
    url,
  );
  return { ...view, store };
}
