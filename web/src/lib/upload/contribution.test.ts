// The contributor uploader: the path the server chose (one POST, or the parts it does not hold
// yet), finish after either, and failures left to the caller (spec §4: rejected, no retry here).
import { describe, expect, it, vi } from 'vitest';
import { uploadContribution, type ContributionBody, type ContributionTransport } from './contribution';
import { UploadError, type ByteSender } from './uploader';

const body: ContributionBody = {
  client_id: 'c-1',
  name: 'Photo_1',
  media_type: 'image',
  mime_type: 'image/jpeg',
  file_size: 10,
  sha256: 'b'.repeat(64),
  captured_at: '2026-11-21T09:05:12.000Z',
};

function fakes(upload: 'single' | 'multipart') {
  const log: string[] = [];
  const transport: ContributionTransport = {
    create: vi.fn(async () => {
      log.push('create');
      return { evidence: { id: 'e-1', status: 'awaiting_upload' }, upload };
    }),
    singleUploadUrl: vi.fn(async () => {
      log.push('single-url');
      return { url: 'https://s3.test/b', fields: { key: 'k' } };
    }),
    startMultipart: vi.fn(async () => {
      log.push('start');
      return {
        partSize: 4,
        partCount: 3,
        completedParts: [1],
        presignedUrls: [1, 2, 3].map((n) => ({ partNumber: n, url: `https://s3.test/p${n}` })),
      };
    }),
    finish: vi.fn(async () => {
      log.push('finish');
      return { id: 'e-1', status: 'uploaded' };
    }),
  };
  const sender: ByteSender = {
    postForm: vi.fn(async (url: string, _f: Record<string, string>, file: Blob, onProgress: (n: number) => void) => {
      log.push(`post ${url}`);
      onProgress(file.size);
    }),
    put: vi.fn(async (url: string, part: Blob) => {
      log.push(`put ${url} ${part.size}`);
    }),
  };
  return { log, transport, sender };
}

const blob = new Blob(['0123456789']);

describe('uploadContribution', () => {
  it('sends a small file in one POST, then finishes', async () => {
    const { log, transport, sender } = fakes('single');
    const progress: number[] = [];
    const done = await uploadContribution(blob, body, { transport, sender, onProgress: (loaded) => progress.push(loaded) });
    expect(done.status).toBe('uploaded');
    expect(log).toEqual(['create', 'single-url', 'post https://s3.test/b', 'finish']);
    expect(progress.at(-1)).toBe(10);
  });

  it('sends only the parts the server does not hold, then finishes', async () => {
    const { log, transport, sender } = fakes('multipart');
    await uploadContribution(blob, body, { transport, sender });
    expect(log).toEqual(['create', 'start', 'put https://s3.test/p2 4', 'put https://s3.test/p3 2', 'finish']);
  });

  it('lets a failed finish reach the caller, with no retry of its own', async () => {
    const { transport, sender } = fakes('single');
    vi.mocked(transport.finish).mockRejectedValueOnce(new UploadError('The file did not arrive.', false));
    await expect(uploadContribution(blob, body, { transport, sender })).rejects.toThrow('The file did not arrive.');
    expect(transport.finish).toHaveBeenCalledTimes(1);
  });
});
