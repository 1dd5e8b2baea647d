//! A folder's files (`/folder-view?folderId=`): list rows or grid tiles, opening a file in the image
//! viewer or player, the action menus of spec §2, links to proof metadata, map and delete-files,
//! 'Share' (refused for an expired folder, spec §8), and the folder's shares below the files (a
//! section the app puts in from the sharing feature).
import { useState, type ComponentType } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { BottomSheet } from '../../../components/BottomSheet';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { firstErrorMessage } from '../../../lib/api/errors';
import { EXPIRED_MESSAGE, evidenceApi, useDeleteItemMutation, useFolderQuery, useItemsQuery, useRenameItemMutation, type Item } from '../../../lib/api/evidence';
import { formatDate } from '../../../lib/format/format';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { FileActionsSheet } from '../components/FileActionsSheet';
import { FileFacts } from '../components/FileFacts';
import { FileRow } from '../components/FileRow';
import { LazyRenameDialog } from '../../../components/LazyRenameDialog';
import { StorageTag } from '../components/StorageTag';
import { useFileOpener } from '../components/useFileOpener';
import { retakeUrl, type FileAction, type FileItem } from '../model/menus';
import { deleteFilesUrl, extendStorageDateUrl, folderMapUrl, MY_FILES, proofMetadataUrl, shareFilesUrl } from '../paths';
import { FolderGone, isGone, LoadFailed } from '../../../components/LoadFailed';
import { BackControl } from '../../../components/BackControl';

/** While a file is on its way or being checked, the list refreshes itself. */
export const POLL_MS = 5000;
const settled = (item: Item) => item.status === 'verified' || item.status === 'rejected';

type Pending = { kind: 'menu' | 'rename' | 'details' | 'delete'; item: FileItem } | null;

interface Props {
  /** The folder's shares, shown below its files. */
  shares?: ComponentType<{ folderId: string }>;
  /** A file's custody log, shown in its Details sheet. */
  custody?: ComponentType<{ folderId: string; itemId: string }>;
}

export function FolderViewPage({ shares, custody }: Props) {
  const [params] = useSearchParams();
  const folderId = params.get('folderId') ?? '';
  if (!folderId) return <Navigate to={MY_FILES} replace />;
  return <FolderView key={folderId} folderId={folderId} Shares={shares} Custody={custody} />;
}

function FolderView({ folderId, Shares, Custody }: { folderId: string; Shares?: Props['shares']; Custody?: Props['custody'] }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const folder = useFolderQuery(folderId);
  const cached = evidenceApi.endpoints.items.useQueryState(folderId);
  const unsettled = cached.data?.some((item) => !settled(item)) ?? false;
  const items = useItemsQuery(folderId, { pollingInterval: unsettled ? POLL_MS : 0 });
  const [renameItem] = useRenameItemMutation();
  const [deleteItem, deleting] = useDeleteItemMutation();
  const { openFile, downloadFile, viewer } = useFileOpener();
  const [layout, setLayout] = useState<'list' | 'grid'>('list');
  const [pending, setPending] = useState<Pending>(null);

  const act = (item: FileItem, action: FileAction) => {
    switch (action) {
      case 'rename':
      case 'details':
      case 'delete':
        setPending({ kind: action, item });
        return;
      case 'download':
        setPending(null);
        void downloadFile(item);
        return;
      case 'retake':
        setPending(null);
        if (item.expired) dispatch(showSnackbar({ message: EXPIRED_MESSAGE, type: 'info' }));
        else void navigate(retakeUrl(item, `${location.pathname}${location.search}`));
        return;
    }
  };

  const share = () => {
    if (folder.data?.expired) dispatch(showSnackbar({ message: EXPIRED_MESSAGE, type: 'info' }));
    else void navigate(shareFilesUrl(folderId));
  };

  const remove = async (item: Item) => {
    const result = await deleteItem({ id: item.id, folderId });
    setPending(null);
    if ('error' in result) dispatch(showSnackbar({ message: firstErrorMessage(result.error, 'The file was not deleted.'), type: 'error' }));
    else dispatch(showSnackbar({ message: 'File deleted.', type: 'success' }));
  };

  if (folder.isError && isGone(folder.error)) return <FolderGone />;

  return (
    <main className="page files">
      <BackControl to={MY_FILES} label="My Files" />
      <h1>{folder.data?.name ?? 'Folder'}</h1>
      {folder.isError && <LoadFailed what="The folder could not be loaded." error={folder.error} onRetry={() => void folder.refetch()} />}
      {folder.data && (
        <p className="files-folder-info">
          {folder.data.expirationDate && <span className="muted">Storage date: {formatDate(folder.data.expirationDate)} </span>}
          <StorageTag state={folder.data} />
        </p>
      )}
      <nav className="files-links" aria-label="Folder">
        <Link to={proofMetadataUrl(folderId)}>Proof metadata</Link>
        <Link to={folderMapUrl(folderId)}>Map</Link>
        <Link to={deleteFilesUrl(folderId)}>Delete files</Link>
        <Link to={extendStorageDateUrl(folderId)}>Extend Storage Date</Link>
        <button type="button" className="files-links__button" onClick={share} disabled={!items.data?.length}>
          Share
        </button>
      </nav>
      <div className="files-layout" role="group" aria-label="Layout">
        <button type="button" className="files-layout__button" aria-pressed={layout === 'list'} onClick={() => setLayout('list')}>
          List
        </button>
        <button type="button" className="files-layout__button" aria-pressed={layout === 'grid'} onClick={() => setLayout('grid')}>
          Grid
        </button>
      </div>

      {items.isLoading && <p className="muted">Loading…</p>}
      {items.isError && <LoadFailed what="The files could not be loaded." error={items.error} onRetry={() => void items.refetch()} />}
      {items.data?.length === 0 && <p className="muted">This folder has no files yet.</p>}
      <ul className={layout === 'list' ? 'files-list' : 'files-grid'} aria-label="Files" data-layout={layout}>
        {items.data?.map((item) => (
          <FileRow
            key={item.id}
            item={item}
            layout={layout}
            onOpen={() => void openFile(item)}
            onMenu={() => setPending({ kind: 'menu', item })}
          />
        ))}
      </ul>
      {Shares && <Shares folderId={folderId} />}

      {pending?.kind === 'menu' && (
        <FileActionsSheet item={pending.item} context="owner" onAction={(action) => act(pending.item, action)} onClose={() => setPending(null)} />
      )}
      {pending?.kind === 'details' && (
        <BottomSheet open title="Details" onClose={() => setPending(null)}>
          <FileFacts item={pending.item} />
          {Custody && <Custody folderId={folderId} itemId={pending.item.id} />}
        </BottomSheet>
      )}
      {pending?.kind === 'rename' && (
        <LazyRenameDialog
          title="Rename file"
          initialName={pending.item.name}
          onSubmit={async (name) => {
            const result = await renameItem({ id: pending.item.id, name });
            return 'error' in result ? (result.error ?? null) : undefined;
          }}
          onClose={() => setPending(null)}
        />
      )}
      <ConfirmDialog
        isOpen={pending?.kind === 'delete'}
        title="Delete file?"
        subTitle={pending ? `'${pending.item.name}' will be deleted permanently.` : undefined}
        buttons={[
          { text: 'Delete', onClick: () => pending && void remove(pending.item), isHighlighted: true, disabled: deleting.isLoading },
          { text: 'Cancel', onClick: () => setPending(null) },
        ]}
      />
      {viewer}
    </main>
  );
}
