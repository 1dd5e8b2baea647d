//! How futuregram states read on screen.
import type { ExecutorState, FuturegramState } from '../api/types';

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
