//! `/share-files/:folderId`, the first step of sharing: the whole folder or chosen files. An expired
//! file or folder cannot be shared (spec §4, §8: the info message 'Please extend your Storage Date
//! for this file.'); a file still on its way cannot be copied yet. The choice goes to the sharing
//! draft, then to /type-of-copy.
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../lib/store/hooks';
import { BackControl } from '../../../components/BackControl';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { EXPIRED_MESSAGE, useFolderQuery, useItemsQuery } from '../../../lib/api/evidence';
import { formatDateTime } from '../../../lib/format/format';
import { itemsChosen, selectDraftOf, shareStarted } from '../../../lib/sharing/draft';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { MEDIA_TYPE_LABELS, MESSAGES, plural } from '../model/labels';
import { folderViewUrl, typeOfCopyUrl } from '../model/paths';
import { blockedReason, wholeFolderBlocked, type Blocked } from '../model/shareable';
import '../sharing.css';

export const SOME_NOT_UPLOADED = 'Some files are not uploaded yet: choose the files to share.';

export function ShareFilesPage() {
  const { folderId = '' } = useParams();
  return <ShareFiles key={folderId} folderId={folderId} />;
}

function ShareFiles({ folderId }: { folderId: string }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const draft = useAppSelector(selectDraftOf(folderId));
  const folder = useFolderQuery(folderId);
  const items = useItemsQuery(folderId);
  const [mode, setMode] = useState<'whole' | 'chosen' | null>(draft ? (draft.wholeFolder ? 'whole' : 'chosen') : null);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set(draft?.itemIds ?? []));

  const list = items.data ?? [];
  const wholeBlocked = wholeFolderBlocked(list, folder.data);
  // Until the user picks, the whole folder when it can be shared, else chosen files.
  const effective = mode ?? (wholeBlocked || list.length === 0 ? 'chosen' : 'whole');
  const shareable = new Set(list.filter((item) => !blockedReason(item, folder.data)).map((item) => item.id));
  const selection = [...chosen].filter((id) => shareable.has(id));
  const canContinue = list.length > 0 && (effective === 'whole' ? !wholeBlocked : selection.length > 0);

  const tell = (reason: Blocked) => {
    if (reason === 'expired') dispatch(showSnackbar({ message: EXPIRED_MESSAGE, type: 'info' }));
    else if (reason === 'not-uploaded') dispatch(showSnackbar({ message: MESSAGES.notUploaded, type: 'info' }));
  };

  const chooseWhole = () => {
    if (wholeBlocked === 'expired') tell('expired');
    else if (wholeBlocked) dispatch(showSnackbar({ message: SOME_NOT_UPLOADED, type: 'info' }));
    else setMode('whole');
  };

  const toggle = (id: string, reason: Blocked) => {
    if (reason) {
      tell(reason);
      return;
    }
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
    setMode('chosen');
  };

  const next = () => {
    dispatch(shareStarted(folderId));
    dispatch(itemsChosen({ wholeFolder: effective === 'whole', itemIds: effective === 'whole' ? [] : selection }));
    void navigate(typeOfCopyUrl(folderId));
  };

  return (
    <main className="page sharing">
      <BackControl to={folderViewUrl(folderId)} label={folder.data?.name ?? 'Folder'} />
      <h1>Share Files</h1>
      {folder.data?.expired && <InfoBanner type="attention" title={EXPIRED_MESSAGE} />}
      {folder.data?.expired && (
        <Link className="link-block" to={`/extend-storage-date/${encodeURIComponent(folderId)}`}>
          Extend Storage Date
        </Link>
      )}
      {items.isLoading && <p className="muted">Loading…</p>}
      {items.isError && (
        <div className="sharing-failure">
          <p className="muted">The files could not be loaded.</p>
          <PrimaryButton variant="secondary" onClick={() => void items.refetch()}>
            Try again
          </PrimaryButton>
        </div>
      )}
      {items.data?.length === 0 && <p className="muted">{MESSAGES.nothingToShare}</p>}
      {list.length > 0 && (
        <fieldset className="sharing-choices">
          <legend>What do you want to share?</legend>
          <label className={`sharing-choice${effective === 'whole' ? ' sharing-choice--chosen' : ''}`}>
            <input type="radio" name="scope" checked={effective === 'whole'} onChange={chooseWhole} />
            <span className="sharing-choice__body">
              <span className="sharing-choice__title">Whole folder</span>
              <span className="muted">{plural(list.length, 'file')}</span>
            </span>
          </label>
          <label className={`sharing-choice${effective === 'chosen' ? ' sharing-choice--chosen' : ''}`}>
            <input type="radio" name="scope" checked={effective === 'chosen'} onChange={() => setMode('chosen')} />
            <span className="sharing-choice__body">
              <span className="sharing-choice__title">Chosen files</span>
              <span className="muted">{selection.length > 0 ? `${plural(selection.length, 'file')} chosen` : 'Choose below'}</span>
            </span>
          </label>
        </fieldset>
      )}
      {effective === 'chosen' && list.length > 0 && (
        <ul className="sharing-items" aria-label="Files">
          {list.map((item) => {
            const reason = blockedReason(item, folder.data);
            return (
              <li key={item.id} className={`sharing-item${reason ? ' sharing-item--blocked' : ''}`}>
                <label className="sharing-item__select">
                  <input type="checkbox" checked={!reason && chosen.has(item.id)} aria-label={item.name} onChange={() => toggle(item.id, reason)} />
                  <span className="sharing-item__body">
                    <span className="sharing-item__name">{item.name}</span>
                    <span className="muted sharing-item__meta">
                      {MEDIA_TYPE_LABELS[item.mediaType as keyof typeof MEDIA_TYPE_LABELS] ?? item.mediaType}
                      {item.capturedAt && ` · ${formatDateTime(item.capturedAt)}`}
                      {reason === 'expired' && ' · Expired'}
                      {reason === 'not-uploaded' && ' · Not uploaded yet'}
                    </span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      <PrimaryButton disabled={!canContinue} onClick={next}>
        Continue
      </PrimaryButton>
    </main>
  );
}
