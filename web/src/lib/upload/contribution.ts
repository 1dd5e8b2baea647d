//! Sends one anonymous contribution to an organization folder's step (spec §4 "Anonymous
//! contribution"): create the submission, then either one presigned POST (files up to 8 MiB) or
//! the parts of a multipart upload (the server's create answer says which), then finish, which
//! checks the stored object. The bytes go through the same ByteSender as the owner's uploads.
//! Spec §4: a failed start or finish marks the file rejected, so nothing here retries by itself;
//! a Retry runs the whole thing again with the same client_id, which the server answers with the
//! same submission, restarted.
import { PartSender, type ByteSender } from './uploader';

/** Files up to this size go in one presigned POST (the server decides; this is what it uses). */
export const SINGLE_UPLOAD_MAX_BYTES = 8 * 1024 * 1024;

export type ContributionStatus = 'awaiting_upload' | 'uploaded' | 'verified' | 'rejected';

/** What the uploader reads of a submission (camelCase, as the API gives). */
export interface ContributionRef {
  id: string;
  status: ContributionStatus | string;
  rejectionReason?: string | null;
}

export interface ContributionBody {
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
}

/** The contributor calls, as the uploader makes them. Rejections carry a sentence (UploadError). */
export interface ContributionTransport {
  create(body: ContributionBody): Promise<{ evidence: ContributionRef; upload: 'single' | 'multipart' | string }>;
  singleUploadUrl(evidenceId: string): Promise<{ url: string; fields: Record<string, string> }>;
  startMultipart(
    evidenceId: string,
  ): Promise<{ partSize: number; partCount: number; presignedUrls: { partNumber: number; url: string }[]; completedParts: number[] }>;
  finish(evidenceId: string): Promise<ContributionRef>;
}

export interface ContributionOptions {
  transport: ContributionTransport;
  sender: ByteSender;
  /** Bytes sent so far, of `total`. */
  onProgress?: (loaded: number, total: number) => void;
  /** The submission, once created (a Retry of a failed file keeps showing it). */
  onCreated?: (evidence: ContributionRef) => void;
  signal?: AbortSignal;
}

/** Uploads `blob` as the submission `body` and finishes it; resolves with the finished submission. */
export async function uploadContribution(blob: Blob, body: ContributionBody, options: ContributionOptions): Promise<ContributionRef> {
  const { transport, sender, signal } = options;
  const total = blob.size;
  const report = (loaded: number) => options.onProgress?.(Math.min(loaded, total), total);

  const created = await transport.create(body);
  options.onCreated?.(created.evidence);
  signal?.throwIfAborted();
  const id = created.evidence.id;
  report(0);
  if (created.upload === 'multipart') {
    await sendParts(id, blob, options);
  } else {
    const { url, fields } = await transport.singleUploadUrl(id);
    signal?.throwIfAborted();
    await sender.postForm(url, fields, blob, report, signal);
  }
  signal?.throwIfAborted();
  const finished = await transport.finish(id);
  report(total);
  return finished;
}

async function sendParts(id: string, blob: Blob, options: ContributionOptions) {
  const { transport, sender, signal } = options;
  const plan = await transport.startMultipart(id);
  const parts = new PartSender(blob, plan.partSize, plan.completedParts, sender, signal, options.onProgress);
  const done = new Set(plan.completedParts);
  const missing: number[] = [];
  for (let n = 1; n <= plan.partCount; n += 1) if (!done.has(n)) missing.push(n);
  signal?.throwIfAborted();
  // A missing URL is the server's mistake, not the network's: the file is rejected (spec §4).
  await parts.send(missing, new Map(plan.presignedUrls.map((u) => [u.partNumber, u.url])), false);
}
