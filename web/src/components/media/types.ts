//! The media source of spec §3: what a viewer plays or shows.
export interface MediaSource {
  src: string;
  title: string;
  type: 'video' | 'audio';
}

/** The message of spec §8 when the browser cannot go full screen. */
export const FULLSCREEN_UNAVAILABLE = 'Fullscreen is not available.';
