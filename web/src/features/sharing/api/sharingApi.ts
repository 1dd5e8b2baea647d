//! The sharing calls (spec §7 "Sharing"; docs/decisions.md "Sharing"): the owner's shares of a folder,
//! revoking one, its public link, each file's custody log and its check, the evidence packet; the
//! recipient's code and shared folder; public verification. Paying for a share is lib/api/sharing.ts (checkout's call).
//!
//! A recipient's access travels as the folder token in the header X-Folder-Token (never as the
//! bearer: a recipient may be signed out, or signed in as someone else) or, for a public link,
//! as the link's token in the query (`?link=`).
import { sharingTags } from '../../../lib/api/sharing';
import type {
  ChainCheck,
  Chat,
  ChatMessage,
  ChatSummary,
  CodeChecked,
  CodeSent,
  CopyEventKind,
  CopyType,
  ExecutorAction,
  ExecutorInput,
  ExecutorStanding,
  FolderContents,
  Futuregram,
  FuturegramCreated,
  FuturegramRequest,
  LinkSent,
  PacketLink,
  SituationFuturegrams,
  FolderShares,
  PublicLink,
  Share,
  SharedFolder,
  Verification,
} from './types';

export const FOLDER_TOKEN_HEADER = 'X-Folder-Token';

/**
 * How a recipient reaches a shared folder: the folder token of a checked code, a public link, or a
 * released futuregram's view link.
 */
export type Access = { token: string } | { link: string } | { futuregram: string };

/** The header or query that carries `access`. */
function carry(access: Access): { headers?: Record<string, string>; params?: Record<string, string> } {
  if ('token' in access) return { headers: { [FOLDER_TOKEN_HEADER]: access.token } };
  if ('futuregram' in access) return { params: { futuregram: access.futuregram } };
  return { params: { link: access.link } };
}

const q = encodeURIComponent;

export const sharingApi = sharingTags.injectEndpoints({
  endpoints: (build) => ({
    // --- the owner (bearer) ---
    folderShares: build.query<Share[], string>({
      query: (folderId) => `sharing/folder/${q(folderId)}/details/`,
      transformResponse: (body: FolderShares) => body.shares,
      providesTags: (_r, _e, folderId) => [{ type: 'Share', id: folderId }],
    }),
    revokeShare: build.mutation<Share, { shareId: string; folderId: string }>({
      query: ({ shareId }) => ({ url: `sharing/shares/${q(shareId)}/revoke/`, method: 'POST' }),
      invalidatesTags: (_r, _e, { folderId }) => [
        { type: 'Share', id: folderId },
        { type: 'Share', id: `contents:${folderId}` },
      ],
    }),
    setPublicLink: build.mutation<PublicLink, { shareId: string; folderId: string; active: boolean }>({
      query: ({ shareId, active }) => ({ url: 'sharing/url/create/', method: 'POST', params: { active: String(active) }, body: { share_id: shareId } }),
      invalidatesTags: (_r, _e, { folderId }) => [{ type: 'Share', id: folderId }],
    }),
    folderContents: build.query<FolderContents['items'], string>({
      query: (folderId) => `sharing/folder/${q(folderId)}/contents/`,
      transformResponse: (body: FolderContents) => body.items,
      providesTags: (_r, _e, folderId) => [{ type: 'Share', id: `contents:${folderId}` }],
    }),
    checkCustody: build.mutation<ChainCheck['items'], string>({
      query: (folderId) => ({ url: `sharing/folder/${q(folderId)}/authenticate/`, method: 'POST' }),
      transformResponse: (body: ChainCheck) => body.items,
    }),
    /** A short-lived link to the folder's evidence packet (every verified file, or `itemIds`). */
    createPacket: build.mutation<PacketLink, { folderId: string; itemIds?: string[] }>({
      query: ({ folderId, itemIds }) => ({ url: `sharing/folder/${q(folderId)}/packet/`, method: 'POST', body: { item_ids: itemIds ?? [] } }),
    }),

    // --- the recipient (X-Folder-Token or ?link=) ---
    sendSharingCode: build.mutation<CodeSent, { t1: string; t2: string }>({
      query: (body) => ({ url: 'sharing/code/send/', method: 'POST', body }),
    }),
    checkSharingCode: build.mutation<CodeChecked, { codeId: string; code: string }>({
      query: ({ codeId, code }) => ({ url: `sharing/code/${q(codeId)}/check/`, method: 'POST', body: { confirmation_code: code } }),
    }),
    sharedFolder: build.query<SharedFolder, { copyType: CopyType; access: Access }>({
      query: ({ copyType, access }) =>
        'futuregram' in access
          ? { url: `sharing/futuregram/view/${q(access.futuregram)}/` }
          : {
              url: copyType === 'authenticated' ? 'sharing/view/authenticated/' : 'sharing/view/',
              ...carry(access),
            },
      // The copies' links are presigned and live minutes: a visit never starts from old ones.
      keepUnusedDataFor: 0,
    }),
    /** A short-lived link to the evidence packet of the copies this recipient received. */
    createRecipientPacket: build.mutation<PacketLink, string>({
      query: (token) => ({ url: 'sharing/view/packet/', method: 'POST', ...carry({ token }) }),
    }),
    copyEvent: build.mutation<void, { copyId: string; kind: CopyEventKind; access: Access }>({
      query: ({ copyId, kind, access }) => ({ url: `sharing/copies/${q(copyId)}/events/`, method: 'POST', body: { kind }, ...carry(access) }),
    }),

    // --- the conversation of a share: the owner (bearer) or a recipient (X-Folder-Token) ---
    // Read by the chat's own poller (features/sharing/model/useChat.ts), which asks for what came
    // after the last message it has: nothing is cached here.
    chat: build.query<Chat, { sharingId: string; after: number; token?: string }>({
      query: ({ sharingId, after, token }) => ({
        url: `sharing/shared/${q(sharingId)}/chat/`,
        params: { after: String(after) },
        ...(token ? carry({ token }) : {}),
      }),
      keepUnusedDataFor: 0,
    }),
    postChatMessage: build.mutation<ChatMessage, { sharingId: string; content: string; clientMessageId: string; token?: string }>({
      query: ({ sharingId, content, clientMessageId, token }) => ({
        url: token ? `sharing/shared/${q(sharingId)}/chat/messages/anonymous/` : `sharing/shared/${q(sharingId)}/chat/messages/`,
        method: 'POST',
        body: { content, client_message_id: clientMessageId },
        ...(token ? carry({ token }) : {}),
      }),
      invalidatesTags: (_r, _e, { token }) => (token ? [] : ['Chat']),
    }),
    archiveChat: build.mutation<void, string>({
      query: (sharingId) => ({ url: `sharing/shared/${q(sharingId)}/chat/archive/`, method: 'POST', body: { confirm: true } }),
      invalidatesTags: ['Chat'],
    }),
    chats: build.query<ChatSummary[], void>({
      query: () => 'sharing/sharing-with-chats/',
      providesTags: ['Chat'],
    }),

    // --- futuregrams: the owner (bearer), an executor's link, a recipient's view link ---
    situationFuturegrams: build.query<Futuregram[], string>({
      query: (situationId) => `sharing/futuregram/situation/${q(situationId)}/`,
      transformResponse: (body: SituationFuturegrams) => body.futuregrams,
      providesTags: (_r, _e, situationId) => [{ type: 'Futuregram', id: situationId }],
    }),
    createFuturegram: build.mutation<FuturegramCreated, { body: FuturegramRequest; idempotencyKey: string }>({
      query: ({ body, idempotencyKey }) => ({
        url: 'sharing/scheduled-shares/create/',
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: (_r, _e, { body }) => [{ type: 'Futuregram', id: body.situation_id }, 'StoredAccount', 'Wallet', 'Me', 'Transactions'],
    }),
    updateFuturegramRecipients: build.mutation<Futuregram, { shareId: string; situationId: string; recipients: FuturegramRequest['recipients'] }>({
      query: ({ shareId, recipients }) => ({ url: `sharing/futuregram/${q(shareId)}/recipients/update/`, method: 'PUT', body: { recipients } }),
      invalidatesTags: (_r, _e, { situationId }) => [{ type: 'Futuregram', id: situationId }],
    }),
    updateFuturegramExecutors: build.mutation<Futuregram, { shareId: string; situationId: string; executors: ExecutorInput[] }>({
      query: ({ shareId, executors }) => ({ url: `sharing/futuregram/${q(shareId)}/executors/update/`, method: 'PUT', body: { executors } }),
      invalidatesTags: (_r, _e, { situationId }) => [{ type: 'Futuregram', id: situationId }],
    }),
    cancelFuturegramRelease: build.mutation<Futuregram, { shareId: string; situationId: string }>({
      query: ({ shareId }) => ({ url: `sharing/futuregram/${q(shareId)}/cancel-release/`, method: 'POST' }),
      invalidatesTags: (_r, _e, { situationId }) => [{ type: 'Futuregram', id: situationId }],
    }),
    respondAsExecutor: build.mutation<ExecutorStanding, { token: string; email: string; action: ExecutorAction }>({
      query: ({ token, email, action }) => ({ url: `sharing/futuregram/executor/respond/${q(token)}/`, method: 'POST', body: { email, action } }),
    }),
    refreshFuturegramLink: build.mutation<LinkSent, string>({
      query: (token) => ({ url: `sharing/futuregram/refresh-token/${q(token)}/`, method: 'POST' }),
    }),

    // --- anyone: verification ---
    verifyTransaction: build.query<Verification, string>({
      query: (transactionNumber) => `sharing/verify/${q(transactionNumber)}/`,
    }),
    verifyFile: build.mutation<Verification, { sha256: string }>({
      query: (body) => ({ url: 'sharing/verify/file/', method: 'POST', body }),
    }),
  }),
});

export const {
  useFolderSharesQuery,
  useRevokeShareMutation,
  useSetPublicLinkMutation,
  useFolderContentsQuery,
  useCheckCustodyMutation,
  useCreatePacketMutation,
  useCreateRecipientPacketMutation,
  useSendSharingCodeMutation,
  useCheckSharingCodeMutation,
  useSharedFolderQuery,
  useCopyEventMutation,
  useVerifyTransactionQuery,
  useVerifyFileMutation,
  usePostChatMessageMutation,
  useArchiveChatMutation,
  useChatsQuery,
  useSituationFuturegramsQuery,
  useCreateFuturegramMutation,
  useUpdateFuturegramRecipientsMutation,
  useUpdateFuturegramExecutorsMutation,
  useCancelFuturegramReleaseMutation,
  useRespondAsExecutorMutation,
  useRefreshFuturegramLinkMutation,
} = sharingApi;
