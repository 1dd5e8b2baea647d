//! Request and response types of the sharing API, in the shapes of the gateway's OpenAPI document
//! (`web/openapi.json`, snake_case as on the wire) but written by hand: they name the closed sets
//! (recipient states, custody kinds, copy states) that the generated schema leaves as plain
//! strings. `SharingSchemas` mirrors `components['schemas']`; the exported types are its camelCase
//! forms, as the base query delivers them.
import type { Camelize } from '../../../lib/case';
import type { CopyType } from '../../../lib/sharing/draft';

export type { CopyType } from '../../../lib/sharing/draft';
export type { ShareRecipientInput, ShareRequest, SharePaid } from '../../../lib/api/sharing';

export type RecipientState = 'sent' | 'opened' | 'code_checked';
export type CustodyKind =
  | 'captured'
  | 'uploaded'
  | 'verified'
  | 'shared'
  | 'copy_generated'
  | 'code_sent'
  | 'code_checked'
  | 'viewed'
  | 'downloaded'
  | 'revoked'
  | 'chat_message'
  | 'scheduled'
  | 'released'
  | 'packet_exported';
export type FuturegramState = 'pending' | 'waiting' | 'released' | 'vetoed';
export type ExecutorState = 'invited' | 'accepted' | 'declined';
/** What an executor's link does: the two documented answers, and an accepted executor's two. */
export type ExecutorAction = 'accepted' | 'declined' | 'release' | 'veto';
export type SharedMediaType = 'image' | 'video' | 'audio';
export type CopyState = 'preparing' | 'ready' | 'failed' | 'expired';
export type CopyEventKind = 'viewed' | 'downloaded';

interface SharingSchemas {
  ShareRecipient: {
    id: string;
    /** In full: the owner sees whom they shared with. */
    sent_to: string;
    channel: 'email' | 'sms';
    transaction_number: string;
    state: RecipientState;
    copies_ready: number;
    copies_total: number;
  };
  PublicLink: { url: string; active: boolean };
  Share: {
    id: string;
    folder_id: string;
    copy_type: CopyType;
    created_at: string;
    revoked_at: string | null;
    item_count: number;
    payment_transaction_number: string;
    public_link: SharingSchemas['PublicLink'] | null;
    recipients: SharingSchemas['ShareRecipient'][];
  };
  FolderShares: { folder_id: string; shares: SharingSchemas['Share'][] };
  PublicLinkRequest: { share_id: string };
  CustodyEntry: { seq: number; kind: CustodyKind; at: string; detail: string; hash: string; prev_hash: string | null };
  CustodyItem: {
    item_id: string;
    name: string;
    media_type: SharedMediaType;
    shared_counter: number;
    sharing_available_counter: number;
    custody: SharingSchemas['CustodyEntry'][];
  };
  FolderContents: { items: SharingSchemas['CustodyItem'][] };
  ChainCheckItem: {
    item_id: string;
    entries: number;
    intact: boolean;
    first_broken: { seq: number; kind: CustodyKind; at: string } | null;
  };
  ChainCheck: { items: SharingSchemas['ChainCheckItem'][] };
  CodeSendRequest: { t1: string; t2: string };
  CodeSent: { code_id: string; sent_to: string; copy_type: CopyType; expires_in: number };
  CodeCheckRequest: { confirmation_code: string };
  CodeChecked: { access_folder_token: string; copy_type: CopyType; expires_at: string };
  Watermark: { copy_type: CopyType; generated_for: string | null; sent_to: string; generated_on: string; transaction_number: string };
  SharedItem: {
    /** The copy's id. */
    id: string;
    name: string;
    media_type: SharedMediaType;
    state: CopyState;
    /** A presigned GET of the copy, never the original. */
    url: string | null;
    download_url: string | null;
    sha256: string | null;
    size_bytes: number | null;
    duration: number | null;
  };
  SharedFolder: { sharing_id: string; folder_name: string; copy_type: CopyType; watermark: SharingSchemas['Watermark']; items: SharingSchemas['SharedItem'][] };
  CopyEvent: { kind: CopyEventKind };
  VerifiedItem: {
    name: string;
    media_type: SharedMediaType;
    copy_sha256: string | null;
    original_sha256: string;
    captured_at: string | null;
    latitude: number | null;
    longitude: number | null;
    city: string | null;
    address: string | null;
    received_at: string | null;
    /** The original's signed receipt when it was shared; null for files verified before receipts. */
    receipt?: { payload: string; signature: string; key_id: string } | null;
  };
  Verification: {
    transaction_number: string;
    copy_type: CopyType;
    generated_for: string | null;
    /** Masked ('j***@example.com'). */
    sent_to: string;
    generated_on: string;
    revoked: boolean;
    items: SharingSchemas['VerifiedItem'][];
    /** Present when a file was verified: which item it is a copy of. */
    matched_item_index?: number | null;
  };
  VerifyFileRequest: { sha256: string };
  ChatMessage: {
    id: string;
    /** The message's number in its conversation, in the order the conversation received them. */
    seq: number;
    /** The owner's name, or a recipient's masked address. */
    author_name: string;
    from_owner: boolean;
    /** Written by whoever asked. */
    mine: boolean;
    client_message_id: string;
    content: string;
    created_at: string | null;
  };
  Chat: { sharing_id: string; folder_name: string; read_only: boolean; last_seq: number; messages: SharingSchemas['ChatMessage'][] };
  MessageRequest: { content: string; client_message_id: string };
  ArchiveRequest: { confirm: boolean };
  ChatSummary: {
    sharing_id: string;
    folder_id: string;
    folder_name: string;
    revoked: boolean;
    last_seq: number;
    last_message_at: string | null;
    last_author_name: string;
    last_content: string;
    unread: number;
  };
  FuturegramExecutor: {
    id: string;
    email: string;
    /** E.164, or empty. */
    phone: string;
    state: ExecutorState;
    release_requested: boolean;
    vetoed: boolean;
    responded_at: string | null;
  };
  Futuregram: {
    share_id: string;
    situation_id: string;
    folder_id: string;
    folder_name: string;
    copy_type: CopyType;
    release_at: string | null;
    state: FuturegramState;
    due_at: string | null;
    released_at: string | null;
    created_at: string | null;
    items: { id: string; name: string; media_type: SharedMediaType }[];
    recipients: { sent_to: string; channel: 'email' | 'sms' }[];
    executors: SharingSchemas['FuturegramExecutor'][];
    recipients_paid: number;
    payment_transaction_number: string;
  };
  SituationFuturegrams: { situation_id: string; futuregrams: SharingSchemas['Futuregram'][] };
  ExecutorStanding: {
    state: ExecutorState;
    owner_name: string;
    folder_name: string;
    release_at: string | null;
    futuregram_state: FuturegramState;
    due_at: string | null;
    release_requested: boolean;
    can_request_release: boolean;
    can_veto: boolean;
  };
  LinkSent: { sent_to: string };
  PacketRequest: { item_ids?: string[] };
  PacketLink: { url: string; expires_at: string | null };
}

type Schemas = SharingSchemas;

export type ShareRecipient = Camelize<Schemas['ShareRecipient']>;
export type PublicLink = Camelize<Schemas['PublicLink']>;
export type Share = Camelize<Schemas['Share']>;
export type FolderShares = Camelize<Schemas['FolderShares']>;
export type PublicLinkRequest = Schemas['PublicLinkRequest'];
export type CustodyEntry = Camelize<Schemas['CustodyEntry']>;
export type CustodyItem = Camelize<Schemas['CustodyItem']>;
export type FolderContents = Camelize<Schemas['FolderContents']>;
export type ChainCheckItem = Camelize<Schemas['ChainCheckItem']>;
export type ChainCheck = Camelize<Schemas['ChainCheck']>;
export type CodeSendRequest = Schemas['CodeSendRequest'];
export type CodeSent = Camelize<Schemas['CodeSent']>;
export type CodeCheckRequest = Schemas['CodeCheckRequest'];
export type CodeChecked = Camelize<Schemas['CodeChecked']>;
export type Watermark = Camelize<Schemas['Watermark']>;
export type SharedItem = Camelize<Schemas['SharedItem']>;
export type SharedFolder = Camelize<Schemas['SharedFolder']>;
export type CopyEvent = Schemas['CopyEvent'];
export type VerifiedItem = Camelize<Schemas['VerifiedItem']>;
export type Verification = Camelize<Schemas['Verification']>;
export type VerifyFileRequest = Schemas['VerifyFileRequest'];
export type ChatMessage = Camelize<Schemas['ChatMessage']>;
export type Chat = Camelize<Schemas['Chat']>;
export type MessageRequest = Schemas['MessageRequest'];
export type ChatSummary = Camelize<Schemas['ChatSummary']>;
export type FuturegramExecutor = Camelize<Schemas['FuturegramExecutor']>;
export type Futuregram = Camelize<Schemas['Futuregram']>;
export type SituationFuturegrams = Camelize<Schemas['SituationFuturegrams']>;
export type ExecutorStanding = Camelize<Schemas['ExecutorStanding']>;
export type LinkSent = Camelize<Schemas['LinkSent']>;
export type PacketLink = Camelize<Schemas['PacketLink']>;

/** An executor as the request names one. */
export interface ExecutorInput {
  email: string;
  phone_number?: { country_code: string; national_number: string };
}

export interface FuturegramRequest {
  situation_id: string;
  folder_id: string;
  copy_type: CopyType;
  /** [] releases the whole folder. */
  item_ids: string[];
  recipients: import('../../../lib/api/sharing').ShareRecipientInput[];
  executors: ExecutorInput[];
  /** RFC 3339; absent: released by the executors. */
  release_at?: string;
  pay_with: import('../../../lib/api/sharing').PayWith;
}

export interface FuturegramCreated {
  futuregram: Futuregram;
  transaction: import('../../../lib/api/payments').Transaction;
}
