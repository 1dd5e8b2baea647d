//! How futuregram times and states read on screen.
import type { ExecutorState, FuturegramState } from '../api/types';

/** 'December 31, 2026 at 18:00' in the device's time zone. */
export function formatWhen(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const date = at.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
  const time = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  return `${date} at ${time}`;
}

export const EXECUTOR_STATE_LABELS: Record<ExecutorState, string> = {
  invited: 'Invited',
  accepted: 'Accepted',
  declined: 'Declined',
};

export const FUTUREGRAM_STATE_LABELS: Record<FuturegramState, string> = {
  pending: 'Scheduled',
  waiting: 'Release asked for',
  released: 'Released',
  vetoed: 'Stopped by an executor',
};
