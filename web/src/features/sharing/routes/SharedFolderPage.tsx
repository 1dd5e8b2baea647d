//! The shared folder views (open to anyone): `/auth-shared-folder` (authenticated copies, with the
//! folder token) and `/unauth-shared-folder` (unauthenticated copies, with the folder token or a
//! public link `?link=`; rendered outside the main content container, spec §2). Both show the
//! watermark banner, the copies with a copy still being made as 'Preparing…' (the view refreshes
//! itself meanwhile), each ready copy in the full-screen image viewer or player with the watermark
//! over it, and its download; opening and downloading are reported to the custody log. A
//! recipient who checked a code also has the share's conversation with its owner, and can
//! download the evidence packet of the copies they received. A refused
//! token ('folder_token_invalid') shows the service's message and a way back.
import { useCallback, useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../lib/store/hooks';
import { ImageViewer } from '../../../components/media/ImageViewer';
import { VideoAudioPlayer } from '../../../components/media/VideoAudioPlayer';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { errorStatus, firstErrorMessage, FOLDER_TOKEN_INVALID, hasErrorCode, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { formatDuration, formatFileSize } from '../../../lib/format/format';
import { HOME, START } from '../../../lib/routing/accessTable';
import { folderTokenCleared, selectSignedIn } from '../../../lib/session/loginInfoSlice';
import { sharingApi, useCopyEventMutation, useRefreshFuturegramLinkMutation, useSharedFolderQuery, type Access } from '../api/sharingApi';
import type { CopyEventKind, CopyType, SharedItem } from '../api/types';
import { ChatPanel } from '../components/ChatPanel';
import { RecipientPacket } from '../components/RecipientPacket';
import { WatermarkBanner } from '../components/WatermarkBanner';
import { MEDIA_TYPE_LABELS, MESSAGES } from '../model/labels';
import { verifyUrl } from '../model/paths';
import '../sharing.css';

/** While a copy is being made, the view refreshes this often. */
export const SHARED_POLL_MS = 4000;

export const STATE_TEXT = {
  preparing: 'Preparing…',
  failed: 'This copy could not be made.',
  expired: 'This copy is no longer available.',
} as const;

/** The code of a released futuregram's view link that has expired: a fresh one can be mailed. */
export const LINK_EXPIRED = 'link_expired';

/** An unknown view link (never issued, or its share is gone). */
export const LINK_NO_LONGER_VALID = 'This link is no longer valid.';

/**
 * `/futuregram/view/{token}` (open to anyone holding the link): a released futuregram's copies,
 * shown like a shared folder; an expired link offers a fresh one by mail.
 */
export function FuturegramViewPage() {
  const { token = '' } = useParams();
  const onRefused = useCallback(() => undefined, []);
  return (
    <div className="shared-public">
      <SharedFolder copyType="unauthenticated" access={{ futuregram: token }} onRefused={onRefused} />
    </div>
  );
}

function ExpiredLink({ token, message }: { token: string; message: string }) {
  const [refresh, { data, isLoading, error }] = useRefreshFuturegramLinkMutation();
  return (
    <main className="page sharing">
      <h1>Shared Files</h1>
      {data ? (
        <p role="status">A new link was sent to {data.sentTo}. Open it from your messages.</p>
      ) : (
        <>
          <p role="alert">{message}</p>
          {error && <p role="alert">{(errorStatus(error) ?? 0) >= 500 ? SERVER_ERROR_MESSAGE : firstErrorMessage(error, SERVER_ERROR_MESSAGE)}</p>}
          <PrimaryButton loading={isLoading} onClick={() => void refresh(token)}>
            Send me a new link
          </PrimaryButton>
        </>
      )}
      <WayBack />
    </main>
  );
}

export function AuthSharedFolderPage() {
  return <SharedFolderView copyType="authenticated" />;
}

export function UnauthSharedFolderPage() {
  return <SharedFolderView copyType="unauthenticated" />;
}

function SharedFolderView({ copyType }: { copyType: CopyType }) {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const token = useAppSelector((state) => state.loginInfo.accessFolderToken);
  const link = copyType === 'unauthenticated' ? params.get('link') : null;
  // The service's message once it refused the access ('Your access has ended. ...').
  const [ended, setEnded] = useState<string | null>(null);
  const access: Access | null = link ? { link } : token ? { token } : null;
  const wrapper = copyType === 'unauthenticated' ? 'shared-public' : undefined;

  const onRefused = useCallback(
    (message: string, byToken: boolean) => {
      setEnded(message);
      // An ended token is forgotten: the link in the message gets a new one.
      if (byToken) dispatch(folderTokenCleared());
    },
    [dispatch],
  );

  if (ended || !access) {
    return (
      <div className={wrapper}>
        <main className="page sharing">
          <h1>Shared Files</h1>
          <p role={ended ? 'alert' : undefined}>{ended ?? MESSAGES.noAccess}</p>
          <WayBack />
        </main>
      </div>
    );
  }
  return (
    <div className={wrapper}>
      <SharedFolder copyType={copyType} access={access} onRefused={onRefused} />
    </div>
  );
}

function WayBack() {
  const signedIn = useAppSelector(selectSignedIn);
  return (
    <Link className="link-block" to={signedIn ? HOME : START}>
      {signedIn ? 'Back to Home' : 'Back to the start'}
    </Link>
  );
}

interface SharedFolderProps {
  copyType: CopyType;
  access: Access;
  onRefused: (message: string, byToken: boolean) => void;
}

function SharedFolder({ copyType, access, onRefused }: SharedFolderProps) {
  const args = { copyType, access };
  const cached = sharingApi.endpoints.sharedFolder.useQueryState(args);
  const preparing = cached.data?.items.some((item) => item.state === 'preparing') ?? false;
  const folder = useSharedFolderQuery(args, { pollingInterval: preparing ? SHARED_POLL_MS : 0 });
  const [report] = useCopyEventMutation();
  const [open, setOpen] = useState<SharedItem | null>(null);
  const refused = folder.isError && hasErrorCode(folder.error, FOLDER_TOKEN_INVALID);

  const byToken = 'token' in access;
  useEffect(() => {
    if (refused) onRefused(firstErrorMessage(folder.error, MESSAGES.noAccess), byToken);
  }, [refused, folder.error, byToken, onRefused]);

  // Telling the custody log never stands in the recipient's way: a failed report is not shown.
  const tell = (item: SharedItem, kind: CopyEventKind) => void report({ copyId: item.id, kind, access });

  const view = (item: SharedItem) => {
    setOpen(item);
    tell(item, 'viewed');
  };

  if (folder.isError && 'futuregram' in access && hasErrorCode(folder.error, LINK_EXPIRED)) {
    return <ExpiredLink token={access.futuregram} message={firstErrorMessage(folder.error, MESSAGES.noAccess)} />;
  }

  if (folder.isError) {
    const status = errorStatus(folder.error);
    const message =
      status !== undefined && status >= 500
        ? SERVER_ERROR_MESSAGE
        : status === 404 && 'futuregram' in access
          ? LINK_NO_LONGER_VALID
          : firstErrorMessage(folder.error, MESSAGES.noAccess);
    return (
      <main className="page sharing">
        <h1>Shared Files</h1>
        <p role="alert">{message}</p>
        {(status === undefined || status >= 500) && (
          <PrimaryButton variant="secondary" onClick={() => void folder.refetch()}>
            Try again
          </PrimaryButton>
        )}
        <WayBack />
      </main>
    );
  }

  const data = folder.data;
  const watermark = data ? <WatermarkBanner watermark={data.watermark} overlay /> : null;
  return (
    <main className="page sharing">
      <h1>{data?.folderName ?? 'Shared Files'}</h1>
      {folder.isLoading && <p className="muted">Loading…</p>}
      {data && (
        <>
          <WatermarkBanner watermark={data.watermark} />
          {data.items.length === 0 && <p className="muted">No files are shared here.</p>}
          <ul className="shared-items" aria-label="Shared files">
            {data.items.map((item) => (
              <li key={item.id} className="card shared-item" data-testid="shared-item" data-state={item.state}>
                <span className="shared-item__name">{item.name}</span>
                <span className="muted shared-item__meta">
                  {MEDIA_TYPE_LABELS[item.mediaType] ?? item.mediaType}
                  {item.sizeBytes != null && ` · ${formatFileSize(item.sizeBytes)}`}
                  {item.duration != null && item.mediaType !== 'image' && ` · ${formatDuration(item.duration)}`}
                </span>
                {item.state === 'ready' && item.url ? (
                  <span className="shared-item__actions">
                    <PrimaryButton onClick={() => view(item)} aria-label={`Open ${item.name}`}>
                      Open
                    </PrimaryButton>
                    {item.downloadUrl && (
                      <a className="btn btn--secondary" href={item.downloadUrl} download={item.name} aria-label={`Download ${item.name}`} onClick={() => tell(item, 'downloaded')}>
                        Download
                      </a>
                    )}
                  </span>
                ) : (
                  <span className={`shared-item__state shared-item__state--${item.state}`} role="status">
                    {item.state === 'ready' ? STATE_TEXT.preparing : STATE_TEXT[item.state]}
                  </span>
                )}
              </li>
            ))}
          </ul>
          <Link className="link-block" to={verifyUrl(data.watermark.transactionNumber)}>
            Verify this copy
          </Link>
          {'token' in access && data.items.some((item) => item.state === 'ready') && <RecipientPacket token={access.token} />}
          {/* A public link names nobody: only a recipient who checked a code can write. */}
          {'token' in access && data.sharingId && <ChatPanel sharingId={data.sharingId} token={access.token} title="Messages with the sender" />}
        </>
      )}
      {open?.url &&
        (open.mediaType === 'image' ? (
          <ImageViewer src={open.url} title={open.name} onClose={() => setOpen(null)} watermark={watermark} />
        ) : (
          // An audio copy is a waveform video carrying the banner: it plays as a video.
          <VideoAudioPlayer source={{ src: open.url, title: open.name, type: 'video' }} knownDuration={open.duration} onClose={() => setOpen(null)} watermark={watermark} />
        ))}
    </main>
  );
}
