// The upload row while a failed upload is retried, and once it gives up: what is happening and
// why, in words (spec §4 row; 'Initializing...' only for a first attempt).
import type { UnknownAction } from '@reduxjs/toolkit';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CaptureInfo } from '../../lib/offline/offlineStore';
import { uploadPending, uploadRejected, uploadRetrying } from '../../lib/upload/uploadSlice';
import { makeTestStore, renderWithStore } from '../../testing';
import { UploadRow } from './UploadRow';

const capture: CaptureInfo = {
  id: 'c-1',
  situation: 's-1',
  name: 'Photo_20261121_090512',
  mediaType: 'image',
  mimeType: 'image/jpeg',
  size: 2048,
  sha256: 'b'.repeat(64),
  capturedAt: '2026-11-21T09:05:12.000Z',
};

function renderRow(...actions: UnknownAction[]) {
  const store = makeTestStore();
  for (const action of actions) store.dispatch(action);
  renderWithStore(
    store,
    <ul>
      <UploadRow capture={capture} online onRetake={() => undefined} onRetry={() => undefined} />
    </ul>,
  );
}

describe('the upload row', () => {
  it("says 'Initializing...' on a first attempt", () => {
    renderRow(uploadPending('c-1'));
    expect(screen.getByRole('status')).toHaveTextContent('Initializing...');
    expect(screen.getByRole('progressbar', { name: 'Uploading Photo_20261121_090512' })).toBeInTheDocument();
  });

  it('says which attempt follows and why the last one failed while it retries', () => {
    renderRow(uploadPending('c-1'), uploadRetrying({ id: 'c-1', attempt: 2, attempts: 4, reason: 'The upload link expired before the file was sent.' }));
    expect(screen.getByRole('status')).toHaveTextContent('Upload failed, retrying (attempt 2 of 4)...');
    expect(screen.getByText('The upload link expired before the file was sent.')).toBeInTheDocument();
    expect(screen.queryByText('Initializing...')).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('gives up with Error and the reason in a sentence', () => {
    renderRow(uploadRejected({ id: 'c-1', reason: 'The file is too large to upload.' }));
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByText('The file is too large to upload.')).toBeInTheDocument();
    expect(screen.getByRole('listitem')).not.toHaveTextContent(/HTTP|\b\d{3}\b/);
  });
});
