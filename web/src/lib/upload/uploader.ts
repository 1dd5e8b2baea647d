//! Sends one capture from the offline store to its folder: create the item (or its retake), send
//! the bytes straight to S3 with the presigned request the service answered (one POST, or parts),
//! then finish. The capture's id is the item's client_id, so a create repeated after a reload or a
//! lost answer gets the same item and the same multipart upload back: parts S3 already holds (the
//! service lists them, not the client) are not sent again.
import type { CaptureInfo, StoredCapture } from '../offline/offlineStore';
import { formatDate } from '../format/format';

/** What the service answers, in the shapes the uploader needs (camelCase, as the API gives). */
export interface FolderRef {
  id: string;
}
export type UploadPlan =
  | { kind: 'single'; url: string; fields: Record<string, string> }
  | { kind: 'multipart'; uploadId: string; partSize: number; partCount: number };
export interface CreatedRef {
  item: { id: string };
  upload?: UploadPlan | null;
}
export interface PartUrlsRef {
  urls: { partNumber: number; url: string }[];
  completedParts: number[];
  partSize: number;
  partCount: number;
}

export interface ItemBody {
  client_id: string;
  name: string;
  media_type: string;
  mime_type: string;
  file_size: number;
  sha256: string;
  captured_at: string;
  latitude?: number;
  longitude?: number;
  duration?: number;
  section?: string;
  /** The step of an organization folder (required there, absent elsewhere). */
  step_id?: string;
}
export type RetakeBody = Omit<ItemBody, 'client_id' | 'name' | 'media_type' | 'section' | 'step_id'>;

/** The evidence service, as the uploader calls it. Rejections carry the API's error (see ApiFailure). */
export interface EvidenceTransport {
  /** The caller's folder with this id, or undefined when there is none (404). */
  findFolder(id: string): Promise<FolderRef | undefined>;
  createFolder(body: { name: string; client_id: string }): Promise<FolderRef>;
  /** The names of the caller's folders (to give a new situation folder a name of its own). */
  folderNames(): Promise<string[]>;
  createItem(folderId: string, body: ItemBody): Promise<CreatedRef>;
  retakeItem(itemId: string, body: RetakeBody): Promise<CreatedRef>;
  partUrls(itemId: string, partNumbers: number[]): Promise<PartUrlsRef>;
  finish(itemId: string): Promise<unknown>;
}

/** Sends bytes to presigned URLs, reporting the bytes of this request sent so far. */
export interface ByteSender {
  postForm(url: string, fields: Record<string, string>, file: Blob, onProgress: (loaded: number) => void, signal?: AbortSignal): Promise<void>;
  put(url: string, body: Blob, onProgress: (loaded: number) => void, signal?: AbortSignal): Promise<void>;
}

/** A failed call: `retryable` when trying again later may work (network, 5xx), false for a refusal. */
export class UploadError extends Error {
  readonly retryable: boolean;

  constructor(message: string, retryable: boolean) {
    super(message);
    this.name = 'UploadError';
    this.retryable = retryable;
  }
}

/** Parts in flight at once: enough to keep a phone's uplink busy, few enough to resume cheaply. */
export const PART_CONCURRENCY = 3;
/** Part URLs asked for at a time (they live minutes, so not all of a 2 GB file's at once). */
export const PART_URL_BATCH = 12;

/**
 * The parts of one multipart upload on their way: each part's bytes from the blob, at most
 * PART_CONCURRENCY in flight, and progress that counts the parts S3 already holds as sent. Every
 * uploader (an owner's capture, a contribution) sends its parts through this.
 */
export class PartSender {
  private doneBytes: number;
  private readonly inFlight = new Map<number, number>();

  constructor(
    private readonly blob: Blob,
    private readonly partSize: number,
    completed: Iterable<number>,
    private readonly sender: ByteSender,
    private readonly signal: AbortSignal | undefined,
    private readonly onProgress?: (loaded: number, total: number) => void,
  ) {
    this.doneBytes = [...completed].reduce((sum, n) => sum + this.partBytes(n), 0);
    this.report();
  }

  private partBytes(n: number): number {
    return Math.max(0, Math.min(this.partSize, this.blob.size - (n - 1) * this.partSize));
  }

  private report() {
    let loaded = this.doneBytes;
    for (const sent of this.inFlight.values()) loaded += sent;
    this.onProgress?.(Math.min(loaded, this.blob.size), this.blob.size);
  }

  /** PUTs the parts `numbers` to their URLs; a part without one is an error (`retryable` as given). */
  async send(numbers: readonly number[], urls: ReadonlyMap<number, string>, retryable: boolean): Promise<void> {
    const queue = [...numbers];
    const worker = async () => {
      for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
        this.signal?.throwIfAborted();
        const url = urls.get(n);
        if (!url) throw new UploadError(`The service gave no address for part ${n}.`, retryable);
        const part = n;
        const start = (part - 1) * this.partSize;
        this.inFlight.set(part, 0);
        await this.sender.put(
          url,
          this.blob.slice(start, start + this.partBytes(part)),
          (loaded) => {
            this.inFlight.set(part, loaded);
            this.report();
          },
          this.signal,
        );
        this.inFlight.delete(part);
        this.doneBytes += this.partBytes(part);
        this.report();
      }
    };
    await Promise.all(Array.from({ length: Math.min(PART_CONCURRENCY, queue.length) }, worker));
  }
}

export interface UploadOptions {
  transport: EvidenceTransport;
  sender: ByteSender;
  /** Bytes of the file the store holds so far, of `total`. */
  onProgress?: (loaded: number, total: number) => void;
  /** The folder the capture goes to, once known (made for a new situation, or found). */
  onFolder?: (folderId: string) => void;
  signal?: AbortSignal;
}

/** The name of a folder made for a new situation: 'Evidence Nov 21, 2026' (valid as a file name, §5). */
export function situationFolderName(capturedAt: string): string {
  return `Evidence ${formatDate(capturedAt)}`.trim();
}

/**
 * `base`, or the first of 'base - 2', 'base - 3' ... that no folder in `taken` has (case aside):
 * a second capture session on the same day gets a folder the user can tell from the first.
 */
export function distinctFolderName(base: string, taken: Iterable<string>): string {
  const names = new Set(Array.from(taken, (name) => name.trim().toLowerCase()));
  if (!names.has(base.toLowerCase())) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base} - ${n}`;
    if (!names.has(candidate.toLowerCase())) return candidate;
  }
}

/**
 * Where a capture goes: its folder, the folder its situation names, or a folder made for the
 * situation. A situation made up on the device names no folder: asking would only answer 404.
 */
export async function resolveFolder(capture: CaptureInfo, transport: EvidenceTransport): Promise<string> {
  if (capture.folderId) return capture.folderId;
  const existing = capture.newSituation ? undefined : await transport.findFolder(capture.situation);
  if (existing) return existing.id;
  const name = distinctFolderName(situationFolderName(capture.capturedAt), await transport.folderNames());
  // The situation id is the folder's client_id: a create repeated after a reload finds the same folder.
  const created = await transport.createFolder({ name, client_id: capture.situation });
  return created.id;
}

function itemBody(capture: CaptureInfo): ItemBody {
  return {
    client_id: capture.id,
    name: capture.name,
    media_type: capture.mediaType,
    mime_type: capture.mimeType,
    file_size: capture.size,
    sha256: capture.sha256,
    captured_at: capture.capturedAt,
    ...(capture.latitude !== undefined && { latitude: capture.latitude }),
    ...(capture.longitude !== undefined && { longitude: capture.longitude }),
    ...(capture.durationSeconds !== undefined && { duration: capture.durationSeconds }),
    ...(capture.section !== undefined && { section: capture.section }),
    ...(capture.stepId !== undefined && { step_id: capture.stepId }),
  };
}

/** Uploads `capture` and finishes it; resolves with the item id. */
export async function uploadCapture(capture: StoredCapture, options: UploadOptions): Promise<string> {
  const { transport, signal } = options;
  const total = capture.size;
  const report = (loaded: number) => options.onProgress?.(Math.min(loaded, total), total);

  let created: CreatedRef;
  if (capture.retakeOf) {
    const body = itemBody(capture);
    const retake: RetakeBody = {
      mime_type: body.mime_type,
      file_size: body.file_size,
      sha256: body.sha256,
      captured_at: body.captured_at,
      ...(body.latitude !== undefined && { latitude: body.latitude }),
      ...(body.longitude !== undefined && { longitude: body.longitude }),
      ...(body.duration !== undefined && { duration: body.duration }),
    };
    created = await transport.retakeItem(capture.retakeOf, retake);
  } else {
    const folderId = await resolveFolder(capture, transport);
    options.onFolder?.(folderId);
    signal?.throwIfAborted();
    created = await transport.createItem(folderId, itemBody(capture));
  }
  signal?.throwIfAborted();
  const itemId = created.item.id;
  const plan = created.upload;
  if (!plan) {
    // Already finished (an earlier attempt got this far before the page went away).
    report(total);
    return itemId;
  }
  if (plan.kind === 'single') {
    report(0);
    await options.sender.postForm(plan.url, plan.fields, capture.blob, report, signal);
  } else {
    await sendParts(itemId, capture.blob, options);
  }
  signal?.throwIfAborted();
  await transport.finish(itemId);
  report(total);
  return itemId;
}

async function sendParts(itemId: string, blob: Blob, options: UploadOptions) {
  const { transport, sender, signal } = options;
  const first = await transport.partUrls(itemId, []);
  const { partSize, partCount } = first;
  const parts = new PartSender(blob, partSize, first.completedParts, sender, signal, options.onProgress);
  const done = new Set(first.completedParts);
  const missing: number[] = [];
  for (let n = 1; n <= partCount; n += 1) if (!done.has(n)) missing.push(n);

  for (let start = 0; start < missing.length; start += PART_URL_BATCH) {
    signal?.throwIfAborted();
    const batch = missing.slice(start, start + PART_URL_BATCH);
    const { urls } = await transport.partUrls(itemId, batch);
    await parts.send(batch, new Map(urls.map((u) => [u.partNumber, u.url])), true);
  }
}
