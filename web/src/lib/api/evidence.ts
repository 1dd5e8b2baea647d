//! The owner's evidence API (folders, files, uploads), shared by capture, My Files and rental
//! capture. Request bodies are snake_case; responses arrive camelCase (baseQuery).
import type { Camelize } from '../case';
import { api } from './api';
import type { components } from './schema';

type Schemas = components['schemas'];

/** Spec §4/§8 'Expired storage': what opening, downloading or sharing an expired file says. */
export const EXPIRED_MESSAGE = 'Please extend your Storage Date for this file.';

export type Folder = Camelize<Schemas['Folder']>;
export type Item = Camelize<Schemas['Item']>;
export type StorageUsage = Camelize<Schemas['StorageUsage']>;
export type CreatedItem = Camelize<Schemas['CreatedItem']>;
export type PartUrls = Camelize<Schemas['PartUrls']>;
export type Download = Camelize<Schemas['Download']>;
export type NewItem = Schemas['NewItem'];
export type Receipt = Camelize<Schemas['Receipt']>;
export type ReceiptKey = Camelize<Schemas['ReceiptKey']>;

export const evidenceApi = api.injectEndpoints({
  endpoints: (build) => ({
    storageUsage: build.query<StorageUsage, void>({
      query: () => 'evidence/storage-usage/',
      providesTags: ['StorageUsage'],
    }),
    folders: build.query<Folder[], void>({
      query: () => 'evidence/folders/',
      transformResponse: (body: { folders: Folder[] }) => body.folders,
      providesTags: (folders) => [
        { type: 'Folder', id: 'LIST' },
        ...(folders ?? []).map((f) => ({ type: 'Folder' as const, id: f.id })),
      ],
    }),
    folder: build.query<Folder, string>({
      query: (id) => `evidence/folders/${encodeURIComponent(id)}/`,
      providesTags: (_r, _e, id) => [{ type: 'Folder', id }],
    }),
    createFolder: build.mutation<Folder, Schemas['NewFolder']>({
      query: (body) => ({ url: 'evidence/folders/create/', method: 'POST', body }),
      invalidatesTags: [{ type: 'Folder', id: 'LIST' }, 'StorageUsage'],
    }),
    renameFolder: build.mutation<Folder, { id: string; name: string }>({
      query: ({ id, name }) => ({ url: `evidence/folders/${encodeURIComponent(id)}/rename/`, method: 'PATCH', body: { name } }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Folder', id }, { type: 'Folder', id: 'LIST' }],
    }),
    deleteFolder: build.mutation<void, string>({
      query: (id) => ({ url: `evidence/folders/${encodeURIComponent(id)}/delete/`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Folder', id: 'LIST' }, 'StorageUsage'],
    }),
    items: build.query<Item[], string>({
      query: (folderId) => `evidence/folders/${encodeURIComponent(folderId)}/items/`,
      transformResponse: (body: { items: Item[] }) => body.items,
      providesTags: (items, _e, folderId) => [
        { type: 'Item', id: `folder:${folderId}` },
        ...(items ?? []).map((i) => ({ type: 'Item' as const, id: i.id })),
      ],
    }),
    item: build.query<Item, string>({
      query: (id) => `evidence/items/${encodeURIComponent(id)}/`,
      providesTags: (_r, _e, id) => [{ type: 'Item', id }],
    }),
    renameItem: build.mutation<Item, { id: string; name: string }>({
      query: ({ id, name }) => ({ url: `evidence/items/${encodeURIComponent(id)}/rename/`, method: 'PATCH', body: { name } }),
      invalidatesTags: (item, _e, { id }) => [{ type: 'Item', id }, ...(item ? [{ type: 'Item' as const, id: `folder:${item.folderId}` }] : [])],
    }),
    deleteItem: build.mutation<void, { id: string; folderId: string }>({
      query: ({ id }) => ({ url: `evidence/items/${encodeURIComponent(id)}/delete/`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { id, folderId }) => [
        { type: 'Item', id },
        { type: 'Item', id: `folder:${folderId}` },
        { type: 'Folder', id: folderId },
        { type: 'Folder', id: 'LIST' },
        'StorageUsage',
      ],
    }),
    createItem: build.mutation<CreatedItem, { folderId: string; body: Record<string, unknown> }>({
      query: ({ folderId, body }) => ({ url: `evidence/folders/${encodeURIComponent(folderId)}/items/create/`, method: 'POST', body }),
      invalidatesTags: (_r, _e, { folderId }) => [{ type: 'Item', id: `folder:${folderId}` }, { type: 'Folder', id: folderId }],
    }),
    retakeItem: build.mutation<CreatedItem, { id: string; body: Record<string, unknown> }>({
      query: ({ id, body }) => ({ url: `evidence/items/${encodeURIComponent(id)}/retake/`, method: 'POST', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Item', id }],
    }),
    partUrls: build.mutation<PartUrls, { id: string; partNumbers: number[] }>({
      query: ({ id, partNumbers }) => ({
        url: `evidence/items/${encodeURIComponent(id)}/multipart-upload/part-urls/`,
        method: 'POST',
        body: { part_numbers: partNumbers },
      }),
    }),
    finishUpload: build.mutation<Item, string>({
      query: (id) => ({ url: `evidence/items/${encodeURIComponent(id)}/upload/finish/`, method: 'POST' }),
      invalidatesTags: (item, _e, id) => [
        { type: 'Item', id },
        ...(item ? [{ type: 'Item' as const, id: `folder:${item.folderId}` }, { type: 'Folder' as const, id: item.folderId }] : []),
        { type: 'Folder', id: 'LIST' },
        'StorageUsage',
      ],
    }),
    /** The public keys of signed receipts (open to anyone); they change only with a rotation. */
    receiptKeys: build.query<ReceiptKey[], void>({
      query: () => '.well-known/receipt-keys',
      transformResponse: (body: { keys: ReceiptKey[] }) => body.keys,
      keepUnusedDataFor: 3600,
    }),
    downloadItem: build.query<Download, string>({
      query: (id) => `evidence/items/${encodeURIComponent(id)}/download/`,
      // Presigned links live minutes: never serve one from the cache.
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useStorageUsageQuery,
  useFoldersQuery,
  useFolderQuery,
  useCreateFolderMutation,
  useRenameFolderMutation,
  useDeleteFolderMutation,
  useItemsQuery,
  useItemQuery,
  useRenameItemMutation,
  useDeleteItemMutation,
  useLazyDownloadItemQuery,
  useReceiptKeysQuery,
} = evidenceApi;
