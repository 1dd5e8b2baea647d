//! SHA-256 of a File or Blob, streamed: read in chunks into an incremental hash, so a 2 GB video
//! never sits in memory (WebCrypto's digest takes the whole buffer at once). Works in a worker too.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** 4 MiB: few enough reads to keep the per-read cost small, little enough memory to hold. */
export const HASH_CHUNK_BYTES = 4 * 1024 * 1024;

export interface HashProgress {
  /** Bytes hashed so far. */
  loaded: number;
  total: number;
}

export interface HashOptions {
  /** Bytes read per step; defaults to HASH_CHUNK_BYTES. */
  chunkSize?: number;
  /** Called after each chunk (and once at 0 before the first). */
  onProgress?: (progress: HashProgress) => void;
  /** Stops between chunks; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The SHA-256 of `blob` as 64 lower-case hex digits. */
export async function sha256Hex(blob: Blob, options: HashOptions = {}): Promise<string> {
  const { chunkSize = HASH_CHUNK_BYTES, onProgress, signal } = options;
  if (!Number.isInteger(chunkSize) || chunkSize <= 0) throw new RangeError('chunkSize must be a positive integer');
  const total = blob.size;
  const hash = sha256.create();
  onProgress?.({ loaded: 0, total });
  for (let offset = 0; offset < total; ) {
    signal?.throwIfAborted();
    const end = Math.min(offset + chunkSize, total);
    const chunk = new Uint8Array(await blob.slice(offset, end).arrayBuffer());
    hash.update(chunk);
    offset = end;
    onProgress?.({ loaded: offset, total });
  }
  signal?.throwIfAborted();
  return bytesToHex(hash.digest());
}
