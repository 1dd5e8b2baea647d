// Why an upload failed, in words: the API's own message first, else a sentence per status; the
// file store's answer by its error code or status; never a bare HTTP status.
import { describe, expect, it } from 'vitest';
import { SERVER_ERROR_MESSAGE } from '../api/errors';
import { EXPIRED_MESSAGE } from '../api/evidence';
import { apiFailureReason, storageFailureReason, UPLOAD_REASONS } from './transport';

const S3_TOO_LARGE = '<?xml version="1.0"?><Error><Code>EntityTooLarge</Code><Message>Your proposed upload exceeds the maximum allowed size</Message></Error>';
const S3_DENIED = '<Error><Code>AccessDenied</Code><Message>Invalid according to Policy: Policy expired.</Message></Error>';

describe('upload failure reasons', () => {
  it('puts an API status without a message in words', () => {
    expect(apiFailureReason(500)).toBe(SERVER_ERROR_MESSAGE);
    expect(apiFailureReason(503)).toBe(SERVER_ERROR_MESSAGE);
    expect(apiFailureReason(401)).toBe(UPLOAD_REASONS.signedOut);
    expect(apiFailureReason(404)).toBe('The folder of this file no longer exists.');
    expect(apiFailureReason(409)).toBe(EXPIRED_MESSAGE);
    expect(apiFailureReason(413)).toBe('The file is too large to upload.');
    expect(apiFailureReason(429)).toBe('The server is busy.');
    expect(apiFailureReason(422)).toBe('The server did not accept the file.');
  });

  it("puts the file store's refusal in words, by its code first", () => {
    expect(storageFailureReason(400, S3_TOO_LARGE)).toBe('The file is too large to upload.');
    expect(storageFailureReason(403, S3_DENIED)).toBe('The upload link expired before the file was sent.');
    expect(storageFailureReason(403)).toBe('The upload link expired before the file was sent.');
    expect(storageFailureReason(503, '<Error><Code>SlowDown</Code></Error>')).toBe('The file storage is not answering.');
    expect(storageFailureReason(500)).toBe('The file storage is not answering.');
    expect(storageFailureReason(400)).toBe('The file storage did not accept the file.');
  });

  it('never says a bare status number', () => {
    for (const status of [400, 401, 403, 404, 409, 410, 413, 422, 429, 500, 502, 503]) {
      expect(apiFailureReason(status)).not.toMatch(/\d{3}/);
      expect(storageFailureReason(status)).not.toMatch(/\d{3}/);
      expect(storageFailureReason(status, S3_DENIED)).not.toMatch(/HTTP/);
    }
  });
});
