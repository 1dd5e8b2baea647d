//! The state of a contributor's submission as the screens use it.
import type { Contribution } from '../api/contributionApi';

/** True while a submission's bytes arrived but the server has not checked them yet (the screens poll). */
export function checkingAny(submissions: readonly Pick<Contribution, 'status'>[]): boolean {
  return submissions.some((submission) => submission.status === 'uploaded');
}
