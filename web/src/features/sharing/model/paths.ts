//! The addresses of the sharing screens (spec §2 route table, and /verify of ours).
const q = encodeURIComponent;

export const shareFilesUrl = (folderId: string) => `/share-files/${q(folderId)}`;
export const typeOfCopyUrl = (folderId: string) => `/type-of-copy/${q(folderId)}`;
export const recipientsUrl = (folderId: string) => `/who-you-want-to-share/${q(folderId)}`;
export const sharingCheckoutUrl = (folderId: string) => `/checkout?kind=sharing&folderId=${q(folderId)}`;
export const folderViewUrl = (folderId: string) => `/folder-view?folderId=${q(folderId)}`;
export const transactionUrl = (id: string) => `/transaction-info?id=${q(id)}`;

export const GET_ACCESS_CONFIRM = '/get-access-confirm';
export const AUTH_SHARED_FOLDER = '/auth-shared-folder';
export const UNAUTH_SHARED_FOLDER = '/unauth-shared-folder';
export const VERIFY = '/verify';

export const getAccessConfirmUrl = (copyType: string) => `${GET_ACCESS_CONFIRM}?copyType=${q(copyType)}`;
export const sharedFolderUrl = (copyType: string) => (copyType === 'authenticated' ? AUTH_SHARED_FOLDER : UNAUTH_SHARED_FOLDER);
export const verifyUrl = (transactionNumber: string) => `${VERIFY}/${q(transactionNumber)}`;

export const CHATS = '/chats';
export const chatUrl = (sharingId: string) => `${CHATS}/${q(sharingId)}`;
