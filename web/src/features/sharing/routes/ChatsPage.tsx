//! The owner's conversations (`/chats`, from Home's 'Messages'): their shares with a conversation,
//! newest first (sharing/sharing-with-chats/), each with its folder, the last message and how many
//! the owner has not read, opening `/chats/{sharingId}`; 'Archive' takes one off the list after a
//! confirmation (it comes back when a newer message arrives). `/chats/{sharingId}` is one
//! conversation, with the way back to the list.
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { BackControl } from '../../../components/BackControl';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { errorStatus, firstErrorMessage, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { formatDateTime } from '../../../lib/format/format';
import { HOME } from '../../../lib/routing/accessTable';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useArchiveChatMutation, useChatsQuery } from '../api/sharingApi';
import type { ChatSummary } from '../api/types';
import { ChatPanel } from '../components/ChatPanel';
import { CHATS, chatUrl } from '../model/paths';
import '../sharing.css';

export const ARCHIVE_TITLE = 'Archive this conversation?';
export const ARCHIVE_SUBTITLE = 'It leaves your list until a new message arrives. The recipients still see it.';
export const ARCHIVE_FAILED = 'The conversation could not be archived.';
export const NO_CHATS = "No conversations yet. To write to the people you shared with, open a share's 'Messages' in My Files; their answers show here.";

export function ChatsPage() {
  const dispatch = useAppDispatch();
  const chats = useChatsQuery();
  const [archive, archiving] = useArchiveChatMutation();
  const [confirming, setConfirming] = useState<ChatSummary | null>(null);

  const archiveChat = async (chat: ChatSummary) => {
    const result = await archive(chat.sharingId);
    setConfirming(null);
    if ('error' in result) dispatch(showSnackbar({ message: firstErrorMessage(result.error, ARCHIVE_FAILED), type: 'error' }));
    else dispatch(showSnackbar({ message: 'Conversation archived.', type: 'success' }));
  };

  const status = chats.isError ? errorStatus(chats.error) : undefined;
  return (
    <main className="page sharing">
      <BackControl to={HOME} label="Home" />
      <h1>Messages</h1>
      {chats.isLoading && <p className="muted">Loading…</p>}
      {chats.isError && (
        <div className="sharing-failure" role="alert">
          <p>{status !== undefined && status >= 500 ? SERVER_ERROR_MESSAGE : firstErrorMessage(chats.error, 'The conversations could not be loaded.')}</p>
          <PrimaryButton variant="secondary" onClick={() => void chats.refetch()}>
            Try again
          </PrimaryButton>
        </div>
      )}
      {chats.data?.length === 0 && <p className="muted">{NO_CHATS}</p>}
      <ul className="chats" aria-label="Conversations">
        {chats.data?.map((chat) => (
          <li key={chat.sharingId} className="card chats__row" data-testid="chat-row">
            <Link className="chats__open" to={chatUrl(chat.sharingId)} aria-label={`${chat.folderName}${chat.unread ? `, ${chat.unread} unread` : ''}`}>
              <strong>{chat.folderName}</strong>
              <span className="chats__preview">{chat.lastContent}</span>
              <span className="muted chats__preview">
                {chat.lastAuthorName}
                {chat.lastMessageAt && ` · ${formatDateTime(chat.lastMessageAt)}`}
              </span>
              {chat.revoked && <span className="muted">Revoked</span>}
            </Link>
            {chat.unread > 0 && (
              <span className="chats__unread" data-testid="chat-unread" aria-hidden="true">
                {chat.unread} new
              </span>
            )}
            <PrimaryButton variant="secondary" onClick={() => setConfirming(chat)} aria-label={`Archive ${chat.folderName}`}>
              Archive
            </PrimaryButton>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        isOpen={confirming !== null}
        title={ARCHIVE_TITLE}
        subTitle={ARCHIVE_SUBTITLE}
        buttons={[
          { text: 'Cancel', onClick: () => setConfirming(null) },
          { text: 'Archive', isHighlighted: true, disabled: archiving.isLoading, onClick: () => confirming && void archiveChat(confirming) },
        ]}
      />
    </main>
  );
}

export function ChatPage() {
  const { sharingId = '' } = useParams();
  return (
    <main className="page sharing">
      <BackControl to={CHATS} label="Messages" />
      <h1>Conversation</h1>
      <ChatPanel key={sharingId} sharingId={sharingId} />
    </main>
  );
}
