//! The kinds of media a capture can be.
export const MEDIA_TYPES = ['video', 'audio', 'image'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];
