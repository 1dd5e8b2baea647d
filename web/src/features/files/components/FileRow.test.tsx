// spec §2 "File list", §4 upload and storage states, §9 formats: what a row and a tile show.
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { item } from '../testing/helpers';
import { FileRow } from './FileRow';

const renderRow = (overrides: Parameters<typeof item>[0], layout: 'list' | 'grid' = 'list') =>
  render(
    <ul>
      <FileRow item={item(overrides)} layout={layout} onOpen={vi.fn()} onMenu={vi.fn()} />
    </ul>,
  );

describe('file row', () => {
  it('cuts a name longer than 14 characters and adds three dots, keeping the whole name as its title', () => {
    renderRow({ name: 'Front bumper scratch' });
    const name = screen.getByTestId('file-name');
    expect(name).toHaveTextContent(/^Front bumper s\.\.\.$/);
    expect(name).toHaveAttribute('title', 'Front bumper scratch');
  });

  it('cuts names in grid tiles too, and leaves a short name whole', () => {
    renderRow({ name: 'Kitchen sink leaking badly' }, 'grid');
    expect(screen.getByTestId('file-name')).toHaveTextContent(/^Kitchen sink l\.\.\.$/);
  });

  it('keeps a name of 14 characters whole', () => {
    renderRow({ name: 'Fourteen chars' });
    expect(screen.getByTestId('file-name')).toHaveTextContent(/^Fourteen chars$/);
  });

  it("shows the thumbnail, the date, the size and 'Uploaded' for a verified photo", () => {
    renderRow({ capturedAt: '2026-03-04T10:05:00Z', fileSize: 1_500_000 });
    expect(screen.getByRole('img', { name: 'Thumbnail of Front bumper scratch' })).toHaveAttribute('src', 'http://s3.local/thumb.jpg');
    const row = screen.getByTestId('file');
    expect(row).toHaveTextContent('1.5 MB');
    expect(row).toHaveTextContent(/Mar 4, 2026 · \d\d:\d\d/);
    expect(row).toHaveTextContent('Uploaded');
  });

  it('shows the duration HH:mm:ss of a video and an icon for audio', () => {
    renderRow({ mediaType: 'audio', duration: 3725, thumbnail: null, name: 'Note' });
    expect(screen.getByTestId('file')).toHaveTextContent('01:02:05');
    expect(screen.getByRole('img', { name: 'audio file' })).toBeInTheDocument();
  });

  it('shows a rejected file with its reason', () => {
    renderRow({ status: 'rejected', rejectionReason: 'The stored file differs from the capture.' });
    expect(screen.getByTestId('file')).toHaveTextContent('Error: The stored file differs from the capture.');
  });

  it("shows 'Expired' in grey once the storage date has passed", () => {
    renderRow({ expired: true });
    expect(within(screen.getByTestId('file')).getByText('Expired')).toHaveClass('files-tag--grey');
  });

  it("shows 'EXPIRES SOON' in red with the storage date", () => {
    renderRow({ expireSoon: true, expirationDate: '2026-11-21T12:00:00Z' });
    const tag = within(screen.getByTestId('file')).getByText('EXPIRES SOON');
    expect(tag).toHaveClass('files-tag--red');
    expect(tag).toHaveTextContent(/Nov 2\d, 2026/);
  });
});
