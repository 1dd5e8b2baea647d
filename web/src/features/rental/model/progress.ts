//! Each section's progress, computed from the folder's items (their `section`), and the capture's.
import type { RentalItem } from './rental';
import type { SectionDef } from './sections';

export interface SectionProgress {
  section: SectionDef;
  /** The section's captures, oldest first (rejected ones are left out). */
  items: RentalItem[];
  /** Captures that count toward `required`: items of the section's media type, not rejected. */
  captured: number;
  /** Captures still on their way (not yet received and checked). */
  pending: number;
  /** Captures the service refused (hash or size mismatch, unfinished upload): to take again. */
  rejected: number;
  complete: boolean;
}

export interface CaptureProgress {
  sections: SectionProgress[];
  /** Sections with a requirement that is met. */
  done: number;
  /** Sections with a requirement (optional ones are not counted). */
  total: number;
}

/** When an item was captured (device time), else when it was received; '' if neither is known. */
export function captureTime(item: RentalItem): string {
  return item.capturedAt ?? item.uploadedAt ?? '';
}

export const byCaptureTime = (a: RentalItem, b: RentalItem) => captureTime(a).localeCompare(captureTime(b));

const MEDIA_OF_MODE = { photo: 'image', video: 'video' } as const;

/**
 * The progress of every section of `sections` from the folder's `items`. An item counts once
 * captured and not rejected: an upload still in flight counts, shown as pending, because the
 * capture itself waits safely on the device until it is sent. Only the section's own media type
 * counts toward its requirement (a hotel room's optional walk-through video is shown, not
 * counted as one of the room's photos).
 */
export function captureProgress(sections: readonly SectionDef[], items: readonly RentalItem[]): CaptureProgress {
  const progress = sections.map((section): SectionProgress => {
    const mine = items.filter((item) => item.section === section.id);
    const kept = mine.filter((item) => item.status !== 'rejected').sort(byCaptureTime);
    const captured = kept.filter((item) => item.mediaType === MEDIA_OF_MODE[section.mode]).length;
    return {
      section,
      items: kept,
      captured,
      pending: kept.filter((item) => item.status !== 'verified').length,
      rejected: mine.length - kept.length,
      complete: section.required > 0 && captured >= section.required,
    };
  });
  const required = progress.filter((p) => p.section.required > 0);
  return { sections: progress, done: required.filter((p) => p.complete).length, total: required.length };
}

/** A section's status line: '2 of 4 photos', 'Done', 'Optional'. */
export function progressLabel(p: SectionProgress): string {
  const noun = p.section.mode === 'video' ? 'video' : 'photo';
  if (p.section.required === 0) return p.captured === 0 ? 'Optional' : `${p.captured} ${noun}${p.captured === 1 ? '' : 's'}`;
  if (p.complete) return 'Done';
  return `${p.captured} of ${p.section.required} ${noun}${p.section.required === 1 ? '' : 's'}`;
}
