//! My Files (`/dashboard/my-files`): storage usage, the user's folders with their storage dates and
//! tags, folder actions (rename, delete), and the folders map. Offline, or when the server cannot be
//! reached, the last known list and usage are shown with a note saying so.
import { LoadFailed } from '../../../components/LoadFailed';
import { useState } from 'react';
import { useSelector } from 'react-redux';
import { Link } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { BottomSheet } from '../../../components/BottomSheet';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { firstErrorMessage } from '../../../lib/api/errors';
import { useDeleteFolderMutation, useFoldersQuery, useRenameFolderMutation, useStorageUsageQuery, type Folder } from '../../../lib/api/evidence';
import { formatDate, formatDateTime, formatFileSize } from '../../../lib/format/format';
import { useOnline } from '../../../lib/network/useOnline';
import { selectLastKnown } from '../../../lib/offline/lastKnownSlice';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { FolderIcon } from '../components/Icons';
import { LazyRenameDialog } from '../../../components/LazyRenameDialog';
import { StorageTag } from '../components/StorageTag';
import { folderViewUrl, FOLDERS_MAP } from '../paths';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The note above a list the server did not just answer. */
export const lastKnownNote = (online: boolean, at: string) =>
  `${online ? 'Your folders could not be loaded.' : 'You are offline.'} Showing the last known list, from ${formatDateTime(at)}.`;

type Pending = { kind: 'menu' | 'rename' | 'delete'; folder: Folder } | null;

export function MyFilesPage() {
  const dispatch = useAppDispatch();
  const usage = useStorageUsageQuery();
  const folders = useFoldersQuery();
  const [renameFolder] = useRenameFolderMutation();
  const [deleteFolder, deleting] = useDeleteFolderMutation();
  const [pending, setPending] = useState<Pending>(null);
  const online = useOnline();
  const lastKnown = useSelector(selectLastKnown);
  // Without a connection (or an answer) the list is the last one the server gave.
  const unreachable = !online || folders.isError;
  const folderList = unreachable ? (lastKnown.folders?.data ?? folders.data) : folders.data;
  const usageData = usage.data ?? (unreachable ? lastKnown.storageUsage?.data : undefined);
  const stale = unreachable && lastKnown.folders ? lastKnown.folders : undefined;

  const remove = async (folder: Folder) => {
    const result = await deleteFolder(folder.id);
    setPending(null);
    if ('error' in result) dispatch(showSnackbar({ message: firstErrorMessage(result.error, 'The folder was not deleted.'), type: 'error' }));
    else dispatch(showSnackbar({ message: 'Folder deleted.', type: 'success' }));
  };

  return (
    <main className="page files">
      <h1>My Files</h1>
      <section className="card files-usage" aria-label="Storage usage">
        <h2 className="files-usage__title">Storage used</h2>
        {usageData ? (
          <p className="files-usage__numbers">
            <strong data-testid="used-storage">{formatFileSize(usageData.usedBytes)}</strong>
            <span className="muted">
              {' '}
              · {plural(usageData.fileCount, 'file')} · {plural(usageData.folderCount, 'folder')}
            </span>
          </p>
        ) : (
          <p className="muted">{usage.isError ? 'Storage usage is not available.' : 'Loading…'}</p>
        )}
      </section>

      <div className="files-toolbar">
        <h2 className="files-toolbar__title">Folders</h2>
        <Link to={FOLDERS_MAP} className="files-toolbar__link">
          Folders map
        </Link>
      </div>

      {stale && (
        <p className="files-last-known" role="status" data-testid="last-known">
          {lastKnownNote(online, stale.at)}
        </p>
      )}
      {folders.isLoading && !folderList && <p className="muted">Loading…</p>}
      {folders.isError && !folderList && <LoadFailed what="Your folders could not be loaded." error={folders.error} onRetry={() => void folders.refetch()} />}
      {folderList?.length === 0 && (
        <p className="muted">
          No folders yet. <Link to="/evidence">Capture evidence</Link>
        </p>
      )}
      <ul className="files-folders" aria-label="Folders">
        {folderList?.map((folder) => (
          <li key={folder.id} className="files-folder" data-testid="folder">
            <Link to={folderViewUrl(folder.id)} className="files-folder__open">
              <span className="files-folder__icon">
                <FolderIcon />
              </span>
              <span className="files-folder__body">
                <span className="files-folder__name">{folder.name}</span>
                <span className="files-folder__meta">
                  {plural(folder.fileCount, 'file')} · {formatFileSize(folder.usedBytes)}
                </span>
                {folder.expirationDate && <span className="files-folder__meta">Storage date: {formatDate(folder.expirationDate)}</span>}
                <StorageTag state={folder} />
              </span>
            </Link>
            <button
              type="button"
              className="files-folder__more"
              aria-label={`More actions for ${folder.name}`}
              onClick={() => setPending({ kind: 'menu', folder })}
            >
              ⋮
            </button>
          </li>
        ))}
      </ul>

      {pending?.kind === 'menu' && (
        <BottomSheet open title={pending.folder.name} onClose={() => setPending(null)}>
          <ul className="files-menu" role="menu" aria-label={`Actions for ${pending.folder.name}`}>
            <li role="none">
              <button type="button" role="menuitem" className="files-menu__item" onClick={() => setPending({ kind: 'rename', folder: pending.folder })}>
                Rename
              </button>
            </li>
            <li role="none">
              <button
                type="button"
                role="menuitem"
                className="files-menu__item files-menu__item--danger"
                onClick={() => setPending({ kind: 'delete', folder: pending.folder })}
              >
                Delete
              </button>
            </li>
          </ul>
        </BottomSheet>
      )}
      {pending?.kind === 'rename' && (
        <LazyRenameDialog
          title="Rename folder"
          initialName={pending.folder.name}
          onSubmit={async (name) => {
            const result = await renameFolder({ id: pending.folder.id, name });
            return 'error' in result ? (result.error ?? null) : undefined;
          }}
          onClose={() => setPending(null)}
        />
      )}
      <ConfirmDialog
        isOpen={pending?.kind === 'delete'}
        title="Delete folder?"
        subTitle={pending ? `'${pending.folder.name}' and all its files will be deleted permanently.` : undefined}
        buttons={[
          { text: 'Delete', onClick: () => pending && void remove(pending.folder), isHighlighted: true, disabled: deleting.isLoading },
          { text: 'Cancel', onClick: () => setPending(null) },
        ]}
      />
    </main>
  );
}
