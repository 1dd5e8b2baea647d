//! The uploader's real outbound parts: the evidence API through the app's RTK Query client (so
//! the bearer token and its refresh apply), and XMLHttpRequest for the bytes to S3 (fetch reports
//! no upload progress).
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { errorStatus, firstErrorMessage, SERVER_ERROR_MESSAGE } from '../api/errors';
import { EXPIRED_MESSAGE, evidenceApi } from '../api/evidence';
import { UploadError, type ByteSender, type CreatedRef, type EvidenceTransport, type UploadPlan } from './uploader';

/** What a failed upload row says when the reason is the connection. */
export const CONNECTION_LOST = 'The connection was lost. The file waits on this device and is sent when the network returns.';

/**
 * Why an upload failed, in words, when the server gave no message of its own: a row never shows
 * a bare HTTP status.
 */
export const UPLOAD_REASONS = {
  signedOut: 'Your session has ended. Log in again to send this file.',
  notAllowed: 'You cannot add files to this folder.',
  notFound: 'The folder of this file no longer exists.',
  tooLarge: 'The file is too large to upload.',
  busy: 'The server is busy.',
  refused: 'The server did not accept the file.',
  linkExpired: 'The upload link expired before the file was sent.',
  storageDown: 'The file storage is not answering.',
  storageRefused: 'The file storage did not accept the file.',
} as const;

/** The evidence API's status in words (its own message is preferred, see `failure`). */
export function apiFailureReason(status: number): string {
  if (status >= 500) return SERVER_ERROR_MESSAGE;
  if (status === 401) return UPLOAD_REASONS.signedOut;
  if (status === 403) return UPLOAD_REASONS.notAllowed;
  if (status === 404) return UPLOAD_REASONS.notFound;
  if (status === 409 || status === 410) return EXPIRED_MESSAGE;
  if (status === 413) return UPLOAD_REASONS.tooLarge;
  if (status === 429) return UPLOAD_REASONS.busy;
  return UPLOAD_REASONS.refused;
}

/** The file store's (S3's) answer in words: by its error code when it sent one, else by status. */
export function storageFailureReason(status: number, body = ''): string {
  const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
  if (code === 'EntityTooLarge' || status === 413) return UPLOAD_REASONS.tooLarge;
  if (code === 'AccessDenied' || code === 'ExpiredToken' || code === 'RequestExpired' || status === 403) return UPLOAD_REASONS.linkExpired;
  if (status >= 500 || code === 'SlowDown') return UPLOAD_REASONS.storageDown;
  return UPLOAD_REASONS.storageRefused;
}


function failure(error: unknown): UploadError {
  const status = errorStatus(error);
  if (status === undefined) return new UploadError(CONNECTION_LOST, true);
  const message = firstErrorMessage(error, apiFailureReason(status));
  return new UploadError(message, status >= 500 || status === 429);
}

/** An RTK Query call's answer, or its failure as an UploadError in words (also for the contributor transport). */
export async function call<T>(request: { unwrap(): Promise<T>; reset?: () => void }): Promise<T> {
  try {
    return await request.unwrap();
  } catch (error) {
    throw failure(error);
  }
}

type Dispatch = ThunkDispatch<unknown, unknown, UnknownAction>;

function plan(created: { item: { id: string }; upload?: unknown }): CreatedRef {
  return { item: created.item, upload: (created.upload ?? null) as UploadPlan | null };
}

export function apiTransport(dispatch: Dispatch): EvidenceTransport {
  const e = evidenceApi.endpoints;
  return {
    async findFolder(id) {
      const request = dispatch(e.folder.initiate(id, { forceRefetch: true, subscribe: false }));
      try {
        return await request.unwrap();
      } catch (error) {
        // A malformed or unknown id, or another user's folder, is 404: not a folder of this situation yet.
        if (errorStatus(error) === 404) return undefined;
        throw failure(error);
      }
    },
    createFolder: (body) => call(dispatch(e.createFolder.initiate(body))),
    folderNames: async () => (await call(dispatch(e.folders.initiate(undefined, { forceRefetch: true, subscribe: false })))).map((f) => f.name),
    createItem: async (folderId, body) => plan(await call(dispatch(e.createItem.initiate({ folderId, body: { ...body } })))),
    retakeItem: async (id, body) => plan(await call(dispatch(e.retakeItem.initiate({ id, body: { ...body } })))),
    partUrls: (id, partNumbers) => call(dispatch(e.partUrls.initiate({ id, partNumbers }))),
    finish: (id) => call(dispatch(e.finishUpload.initiate(id))),
  };
}

/** One XMLHttpRequest: resolves on 2xx; a network failure or another status is a retryable UploadError. */
function send(
  method: 'POST' | 'PUT',
  url: string,
  body: XMLHttpRequestBodyInit,
  size: number,
  onProgress: (loaded: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    signal?.addEventListener('abort', abort, { once: true });
    const settle = () => signal?.removeEventListener('abort', abort);
    xhr.open(method, url);
    xhr.upload.onprogress = (event) => {
      // A form's total includes its fields: scale to the file's own bytes.
      if (event.lengthComputable && event.total > 0) onProgress(Math.floor((event.loaded / event.total) * size));
    };
    xhr.onload = () => {
      settle();
      if (xhr.status >= 200 && xhr.status < 300) resolve();
      // An expired presigned request (403) or a store in trouble: a new attempt gets fresh URLs.
      else reject(new UploadError(storageFailureReason(xhr.status, xhr.responseText), true));
    };
    xhr.onerror = () => {
      settle();
      reject(new UploadError(CONNECTION_LOST, true));
    };
    xhr.onabort = () => {
      settle();
      reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
    };
    xhr.send(body);
  });
}

export const xhrSender: ByteSender = {
  postForm(url, fields, file, onProgress, signal) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    // S3 reads the policy fields first; the file must be the last field.
    form.append('file', file);
    return send('POST', url, form, file.size, onProgress, signal);
  },
  put(url, body, onProgress, signal) {
    return send('PUT', url, body, body.size, onProgress, signal);
  },
};
