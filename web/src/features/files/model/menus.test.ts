// spec §2 "File list and file actions", §6 "File menus": which menu a file gets and what it lists.
import { describe, expect, it } from 'vitest';
import { captureMode, menuActions, menuKind, retakeUrl } from './menus';

const file = (status: string, extra: { canRetake?: boolean; expired?: boolean } = {}) => ({ status, expired: false, canRetake: true, ...extra });

describe('file menus', () => {
  it("gives the owner's verified file the full menu: Rename, Retake, Details, Download, Delete", () => {
    const item = file('verified');
    expect(menuKind(item, 'owner')).toBe('full');
    expect(menuActions('full', item)).toEqual(['rename', 'retake', 'details', 'download', 'delete']);
  });

  it('gives files not yet verified or rejected the editable menu', () => {
    for (const status of ['awaiting_upload', 'uploaded', 'rejected']) expect(menuKind(file(status), 'owner')).toBe('editable');
  });

  it('offers Retake in the editable menu only when allowed', () => {
    expect(menuActions('editable', file('rejected', { canRetake: true }))).toEqual(['rename', 'retake', 'details', 'delete']);
    expect(menuActions('editable', file('awaiting_upload', { canRetake: true }))).toEqual(['rename', 'retake', 'details', 'delete']);
    // The server says no (the folder has expired).
    expect(menuActions('editable', file('rejected', { canRetake: false }))).toEqual(['rename', 'details', 'delete']);
    // A file whose bytes arrived and are being checked is not retaken.
    expect(menuActions('editable', file('uploaded', { canRetake: true }))).toEqual(['rename', 'details', 'delete']);
  });

  it('gives any file seen in a shared folder the read-only menu: Details and Download', () => {
    const item = file('verified');
    expect(menuKind(item, 'shared')).toBe('read-only');
    expect(menuActions('read-only', item)).toEqual(['details', 'download']);
  });
});

describe('retake', () => {
  it('opens the capture screen on the folder, the item and its mode, coming back here', () => {
    const url = retakeUrl({ id: 'i1', folderId: 'f1', mediaType: 'video' }, '/folder-view?folderId=f1');
    const [path, query] = url.split('?');
    expect(path).toBe('/evidence');
    const params = new URLSearchParams(query);
    expect(Object.fromEntries(params)).toEqual({ situation: 'f1', retake: 'i1', mode: 'video', returnTo: '/folder-view?folderId=f1' });
  });

  it('maps media types to capture modes', () => {
    expect(captureMode('image')).toBe('photo');
    expect(captureMode('video')).toBe('video');
    expect(captureMode('audio')).toBe('audio');
  });
});
