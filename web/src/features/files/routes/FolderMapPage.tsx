//! A folder's files on a map (`/folder-map-view?folderId=`): a marker per file with coordinates, its
//! popup with name and date, and a list of the files captured without a location.
import { Link, Navigate, useSearchParams } from 'react-router';
import { useFolderQuery, useItemsQuery } from '../../../lib/api/evidence';
import { formatDateTime, truncateName } from '../../../lib/format/format';
import { LazyMapView as MapView } from '../components/LazyMapView';
import { splitByLocation } from '../model/geo';
import { folderViewUrl, MY_FILES } from '../paths';

export function FolderMapPage() {
  const [params] = useSearchParams();
  const folderId = params.get('folderId') ?? '';
  const folder = useFolderQuery(folderId, { skip: !folderId });
  const items = useItemsQuery(folderId, { skip: !folderId });
  if (!folderId) return <Navigate to={MY_FILES} replace />;
  const { located, unlocated } = splitByLocation(items.data ?? []);

  return (
    <main className="page files">
      <Link to={folderViewUrl(folderId)} className="files-back">
        ‹ {folder.data?.name ?? 'Folder'}
      </Link>
      <h1>Map</h1>
      {items.isLoading && <p className="muted">Loading…</p>}
      {items.data && (
        <MapView
          label="Files map"
          markers={located.map(({ value: item, position }) => {
            const when = item.capturedAt ?? item.uploadedAt;
            return {
              id: item.id,
              position,
              label: item.name,
              popup: (
                <span className="files-map__popup">
                  <strong>{item.name}</strong>
                  {when && <span>{formatDateTime(when)}</span>}
                  {item.city && <span>{item.city}</span>}
                </span>
              ),
            };
          })}
        />
      )}
      {unlocated.length > 0 && (
        <section aria-label="Files without a location">
          <h2 className="files-map__list-title">Without a location</h2>
          <ul className="files-map__list">
            {unlocated.map((item) => {
              const when = item.capturedAt ?? item.uploadedAt;
              return (
                <li key={item.id}>
                  <span title={item.name}>{truncateName(item.name)}</span>
                  {when && <span className="muted"> · {formatDateTime(when)}</span>}
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </main>
  );
}
