//! What the offline store accepts, as a schema. A module of its own, loaded the first time a
//! capture is stored: zod stays out of the JavaScript the first screen loads.
import { z } from 'zod';
import { MEDIA_TYPES } from './mediaTypes';

/** What addCapture accepts: a capture and its bytes. */
export const storedCaptureSchema = z
  .object({
    id: z.string().min(1),
    situation: z.string().min(1),
    name: z.string(),
    mediaType: z.enum(MEDIA_TYPES),
    mimeType: z.string().min(1),
    size: z.number().int().nonnegative(),
    /** SHA-256 of the bytes, 64 lower-case hex digits (lib/hash). */
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    /** Device capture time, ISO 8601 with a zone ('Z' or an offset). */
    capturedAt: z.iso.datetime({ offset: true }),
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
    durationSeconds: z.number().nonnegative().optional(),
    /** The folder it goes to, when the situation is an existing folder (else one is created for the situation). */
    folderId: z.string().min(1).optional(),
    /**
     * The situation was made up on the device (a capture session's), so it is no folder's id: its
     * folder is found or made by the situation as client_id, without asking for a folder by it.
     */
    newSituation: z.literal(true).optional(),
    /** The rental section it belongs to (body, interior, ...). */
    section: z.string().min(1).optional(),
    /** The item it replaces (a retake), when it is one. */
    retakeOf: z.string().min(1).optional(),
    /** The step of an organization folder it goes to (organization capture). */
    stepId: z.string().min(1).optional(),
    blob: z.instanceof(Blob),
  })
  .refine((c) => c.size === c.blob.size, { message: 'size must be the blob size', path: ['size'] });

