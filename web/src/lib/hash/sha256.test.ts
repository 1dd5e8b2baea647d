// @vitest-environment node
// Node's Blob, as browsers', has arrayBuffer(); jsdom's does not.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HASH_CHUNK_BYTES, sha256Hex, type HashProgress } from './sha256';

const EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

function bytes(length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i += 1) out[i] = (i * 31 + (i >> 8)) & 0xff;
  return out;
}

describe('streaming SHA-256', () => {
  it('matches the known vectors', async () => {
    expect(await sha256Hex(new Blob([]))).toBe(EMPTY);
    expect(await sha256Hex(new Blob(['abc']))).toBe(ABC);
    expect(await sha256Hex(new Blob(['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq']))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('hashes a multi-chunk blob as a one-shot hash does, whatever the chunk size', async () => {
    const data = bytes(300_007);
    const expected = createHash('sha256').update(data).digest('hex');
    for (const chunkSize of [63, 64, 65, 4096, 100_000, 300_007, HASH_CHUNK_BYTES]) {
      expect(await sha256Hex(new Blob([data]), { chunkSize }), `chunk ${chunkSize}`).toBe(expected);
    }
    const small = data.subarray(0, 1000);
    expect(await sha256Hex(new Blob([small]), { chunkSize: 1 })).toBe(createHash('sha256').update(small).digest('hex'));
  });

  it('reads a file more than one default chunk long in default chunks', async () => {
    const data = bytes(HASH_CHUNK_BYTES * 2 + 5);
    const progress: HashProgress[] = [];
    const hex = await sha256Hex(new Blob([data]), { onProgress: (p) => progress.push(p) });
    expect(hex).toBe(createHash('sha256').update(data).digest('hex'));
    expect(progress.map((p) => p.loaded)).toEqual([0, HASH_CHUNK_BYTES, HASH_CHUNK_BYTES * 2, HASH_CHUNK_BYTES * 2 + 5]);
    expect(progress.every((p) => p.total === data.length)).toBe(true);
  });

  it('reads only a chunk at a time', async () => {
    const data = bytes(10_000);
    const blob = new Blob([data]);
    const sliceSizes: number[] = [];
    const spy = new Proxy(blob, {
      get(target, key) {
        if (key === 'slice') {
          return (start: number, end: number) => {
            sliceSizes.push(end - start);
            return target.slice(start, end);
          };
        }
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await sha256Hex(spy, { chunkSize: 4096 });
    expect(sliceSizes).toEqual([4096, 4096, 1808]);
  });

  it('reports progress for an empty file once, at 0 of 0', async () => {
    const progress: HashProgress[] = [];
    await sha256Hex(new Blob([]), { onProgress: (p) => progress.push(p) });
    expect(progress).toEqual([{ loaded: 0, total: 0 }]);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    const run = sha256Hex(new Blob([bytes(10_000)]), {
      chunkSize: 1000,
      onProgress: (p) => {
        if (p.loaded >= 3000) controller.abort(reason);
      },
      signal: controller.signal,
    });
    await expect(run).rejects.toBe(reason);
  });

  it('refuses a chunk size that is not a positive integer', async () => {
    await expect(sha256Hex(new Blob(['abc']), { chunkSize: 0 })).rejects.toThrow(RangeError);
    await expect(sha256Hex(new Blob(['abc']), { chunkSize: 1.5 })).rejects.toThrow(RangeError);
  });
});
