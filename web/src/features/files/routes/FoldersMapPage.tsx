//! All folders on a map (`/folders-map-view`): one marker per folder, at the centre of its located
//! files, showing its number of files, with its name and date; folders without located files are
//! listed under the map.
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { evidenceApi, useFoldersQuery, type Folder } from '../../../lib/api/evidence';
import { formatDate } from '../../../lib/format/format';
import { LazyMapView as MapView } from '../components/LazyMapView';
import { folderPosition, type LatLng } from '../model/geo';
import { folderViewUrl, MY_FILES } from '../paths';
import { BackControl } from '../../../components/BackControl';

/** Loads one folder's files and reports where the folder goes (renders nothing). */
function FolderLocator({ folderId, onLocated }: { folderId: string; onLocated: (id: string, position: LatLng | null) => void }) {
  const { data } = evidenceApi.endpoints.items.useQuery(folderId);
  const position = data ? (folderPosition(data) ?? null) : undefined;
  const key = position === undefined ? undefined : JSON.stringify(position);
  useEffect(() => {
    if (key !== undefined) onLocated(folderId, JSON.parse(key) as LatLng | null);
  }, [folderId, key, onLocated]);
  return null;
}

export function FoldersMapPage() {
  const folders = useFoldersQuery();
  const [positions, setPositions] = useState<Record<string, LatLng | null>>({});
  const onLocated = useCallback((id: string, position: LatLng | null) => setPositions((all) => ({ ...all, [id]: position })), []);

  const list = folders.data ?? [];
  const located = list.flatMap((folder) => {
    const position = positions[folder.id];
    return position ? [{ folder, position }] : [];
  });
  const unlocated = list.filter((folder) => positions[folder.id] === null);
  const popup = (folder: Folder) => (
    <span className="files-map__popup">
      <strong>{folder.name}</strong>
      {folder.createdAt && <span>{formatDate(folder.createdAt)}</span>}
      <Link to={folderViewUrl(folder.id)}>Open folder</Link>
    </span>
  );

  return (
    <main className="page files">
      <BackControl to={MY_FILES} label="My Files" />
      <h1>Folders map</h1>
      {list.map((folder) => (
        <FolderLocator key={folder.id} folderId={folder.id} onLocated={onLocated} />
      ))}
      {folders.isLoading && <p className="muted">Loading…</p>}
      {folders.data && (
        <MapView
          label="Folders map"
          markers={located.map(({ folder, position }) => ({ id: folder.id, position, label: folder.name, count: folder.fileCount, popup: popup(folder) }))}
        />
      )}
      {unlocated.length > 0 && (
        <section aria-label="Folders without a location">
          <h2 className="files-map__list-title">Without a location</h2>
          <ul className="files-map__list">
            {unlocated.map((folder) => (
              <li key={folder.id}>
                <Link to={folderViewUrl(folder.id)}>{folder.name}</Link>
                {folder.createdAt && <span className="muted"> · {formatDate(folder.createdAt)}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}
