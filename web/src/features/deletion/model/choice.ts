//! The deletion flow's screens, and the reason chosen on the second one. The choice travels in the
//! router's location state: the browser keeps it with the history entry, so a reload of the
//! confirm screen (or Back to the reasons) still has it; without one, confirm goes to the reasons.
import { formatDate, type DateInput } from '../../../lib/format/format';

export const DELETION_PATHS = {
  intro: '/deleting-of-evidentia-account',
  reasons: '/deleting-my-account-reasons',
  confirm: '/deleting-my-account-confirm',
} as const;

/** Where leaving the flow goes. */
export const SETTINGS = '/dashboard/settings';

/** How long a deleted account can be recovered (contract "Deletion"). */
export const GRACE_PERIOD_DAYS = 30;

/** The reason that needs details. */
export const OTHER_REASON = 'other';

export interface DeletionChoice {
  reasonId: string;
  /** The reason's title, shown again on the confirm screen. */
  reasonTitle: string;
  /** Only for the 'other' reason; empty otherwise. */
  details: string;
}

/** The choice carried in a location's state, if it has one of the right shape. */
export function choiceFrom(state: unknown): DeletionChoice | undefined {
  if (!state || typeof state !== 'object' || !('choice' in state)) return undefined;
  const choice: unknown = state.choice;
  if (!choice || typeof choice !== 'object') return undefined;
  const { reasonId, reasonTitle, details } = choice as Record<string, unknown>;
  if (typeof reasonId !== 'string' || !reasonId || typeof reasonTitle !== 'string' || typeof details !== 'string') return undefined;
  return { reasonId, reasonTitle, details };
}

/** The location state that carries `choice`. */
export const choiceState = (choice: DeletionChoice) => ({ choice });

/** What the start screen says once the account is deleted. */
export function deletedMessage(recoverableUntil: DateInput): string {
  return `Your account was deleted. You can recover it until ${formatDate(recoverableUntil)}.`;
}
