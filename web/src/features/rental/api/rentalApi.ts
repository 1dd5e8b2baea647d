//! Rental endpoints of the evidence API: create a rental folder (idempotent on its client id) and
//! list a Pick-up's Returns. Folders, items and their cache tags are the shared evidence API's.
import { api } from '../../../lib/api/api';
import type { Folder } from '../../../lib/api/evidence';
import type { NewRentalFolder } from '../model/rental';

export const rentalApi = api.injectEndpoints({
  endpoints: (build) => ({
    createRentalFolder: build.mutation<Folder, NewRentalFolder>({
      query: (body) => ({ url: 'evidence/folders/create/', method: 'POST', body }),
      invalidatesTags: [{ type: 'Folder', id: 'LIST' }, 'StorageUsage'],
    }),
    returnFolders: build.query<Folder[], string>({
      query: (pickupFolderId) => `evidence/folders/?${new URLSearchParams({ pickup_folder_id: pickupFolderId }).toString()}`,
      transformResponse: (body: { folders: Folder[] }) => body.folders,
      providesTags: [{ type: 'Folder', id: 'LIST' }],
    }),
  }),
});

export const { useCreateRentalFolderMutation, useReturnFoldersQuery } = rentalApi;
