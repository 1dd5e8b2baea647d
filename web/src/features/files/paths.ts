//! The addresses of the My Files screens.
export const MY_FILES = '/dashboard/my-files';
export const FOLDERS_MAP = '/folders-map-view';

const q = (id: string) => encodeURIComponent(id);
export const folderViewUrl = (folderId: string) => `/folder-view?folderId=${q(folderId)}`;
export const folderMapUrl = (folderId: string) => `/folder-map-view?folderId=${q(folderId)}`;
export const proofMetadataUrl = (folderId: string) => `/proof-metadata-view/${q(folderId)}`;
export const deleteFilesUrl = (folderId: string) => `/delete-files/${q(folderId)}`;
export const extendStorageDateUrl = (folderId: string) => `/extend-storage-date/${q(folderId)}`;
export const shareFilesUrl = (folderId: string) => `/share-files/${q(folderId)}`;
