//! A folder's files on a map (`/folder-map-view?folderId=`): a marker per spot where files were
//! taken, counting them, its popup with their names and dates, and a list of the files captured
//! without a location.
import { Navigate, useSearchParams } from 'react-router';
import { useFolderQuery, useItemsQuery } from '../../../lib/api/evidence';
import { formatDateTime, truncateName } from '../../../lib/format/format';
import { LazyMapView as MapView } from '../components/LazyMapView';
import { groupByPosition, splitByLocation } from '../model/geo';
import { folderViewUrl, MY_FILES } from '../paths';
import { FolderGone, isGone, LoadFailed } from '../../../components/LoadFailed';
import { BackControl } from '../../../components/BackControl';

export function FolderMapPage() {
  const [params] = useSearchParams();
  const folderId = params.get('folderId') ?? '';
  const folder = useFolderQuery(folderId, { skip: !folderId });
  const items = useItemsQuery(folderId, { skip: !folderId });
  if (!folderId) return <Navigate to={MY_FILES} replace />;
  const { located, unlocated } = splitByLocation(items.data ?? []);

  if ((folder.isError && isGone(folder.error)) || (items.isError && isGone(items.error))) return <FolderGone />;

  return (
    <main className="page files">
      <BackControl to={folderViewUrl(folderId)} label={folder.data?.name ?? 'Folder'} />
      <h1>Map</h1>
      {items.isLoading && <p className="muted">Loading…</p>}
      {items.isError && <LoadFailed what="The files could not be loaded." error={items.error} onRetry={() => void items.refetch()} />}
      {items.data && (
        <MapView
          label="Files map"
          markers={groupByPosition(located).map(({ position, values }) => ({
            id: values.map((item) => item.id).join(','),
            position,
            label: values.map((item) => item.name).join(', '),
            count: values.length,
            popup: (
              <span className="files-map__popup">
                {values.map((item) => {
                  const when = item.capturedAt ?? item.uploadedAt;
                  return (
                    <span key={item.id} className="files-map__popup-file">
                      <strong>{item.name}</strong>
                      {when && <span>{formatDateTime(when)}</span>}
                      {item.city && <span>{item.city}</span>}
                    </span>
                  );
                })}
              </span>
            ),
          }))}
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
