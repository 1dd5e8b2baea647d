//! Test helpers of the files feature: a file as the app holds it (camelCase). The harness and
//! the API's folder and file answers are `src/testing`.
import type { FileItem } from '../model/menus';

/** The camelCase item the app uses. */
export function item(overrides: Partial<FileItem> = {}): FileItem {
  return {
    id: 'item-1',
    folderId: 'folder-1',
    name: 'Front bumper scratch',
    mediaType: 'image',
    mimeType: 'image/jpeg',
    fileSize: 123456,
    sha256: 'a'.repeat(64),
    status: 'verified',
    rejectionReason: '',
    uploaded: true,
    city: 'Berlin',
    address: 'Berlin, BE, DE',
    countryCode: 'DE',
    latitude: 52.52,
    longitude: 13.405,
    duration: null,
    capturedAt: '2026-03-04T10:05:00Z',
    uploadedAt: '2026-03-04T10:06:00Z',
    expirationDate: '2027-03-04T10:00:00Z',
    expired: false,
    expireSoon: false,
    thumbnail: 'http://s3.local/thumb.jpg',
    temporaryFileUrl: 'http://s3.local/file.jpg',
    canRetake: true,
    ...overrides,
  };
}

