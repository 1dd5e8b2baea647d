//! Proof metadata (`/proof-metadata-view/:folderId`): every recorded fact of every file of a folder,
//! then the files' chain of custody (a section the app puts in from the sharing feature).
import type { ComponentType } from 'react';
import { useParams } from 'react-router';
import { useFolderQuery, useItemsQuery } from '../../../lib/api/evidence';
import { formatDate } from '../../../lib/format/format';
import { FileFacts } from '../components/FileFacts';
import { folderViewUrl } from '../paths';
import { BackControl } from '../../../components/BackControl';

interface Props {
  /** The files' custody logs and their check. */
  custody?: ComponentType<{ folderId: string }>;
}

export function ProofMetadataPage({ custody: Custody }: Props) {
  const { folderId = '' } = useParams();
  const folder = useFolderQuery(folderId);
  const items = useItemsQuery(folderId);
  return (
    <main className="page files">
      <BackControl to={folderViewUrl(folderId)} label={folder.data?.name ?? 'Folder'} />
      <h1>Proof metadata</h1>
      {folder.data && (
        <p className="muted">
          {folder.data.name}
          {folder.data.createdAt && ` · created ${formatDate(folder.data.createdAt)}`}
          {folder.data.expirationDate && ` · storage date ${formatDate(folder.data.expirationDate)}`}
        </p>
      )}
      {items.isLoading && <p className="muted">Loading…</p>}
      {items.isError && <p className="muted">The files could not be loaded.</p>}
      {items.data?.length === 0 && <p className="muted">This folder has no files.</p>}
      {items.data?.map((item) => (
        <section key={item.id} className="card files-proof" aria-label={item.name}>
          <h2 className="files-proof__title">{item.name}</h2>
          <FileFacts item={item} />
        </section>
      ))}
      {Custody && items.data && items.data.length > 0 && <Custody folderId={folderId} />}
    </main>
  );
}
