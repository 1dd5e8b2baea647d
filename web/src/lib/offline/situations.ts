//! Names of capture situations in the offline store that are not an /evidence session: a step of
//! an organization folder keeps its waiting files under `organization:{folderId}:{stepId}`, so the
//! way back to them is that step's capture screen.

const PREFIX = 'organization:';

export const stepSituation = (folderId: string, stepId: string) => `${PREFIX}${folderId}:${stepId}`;

/** The folder and step of an organization step's situation, else null. */
export function parseStepSituation(situation: string): { folderId: string; stepId: string } | null {
  if (!situation.startsWith(PREFIX)) return null;
  const [folderId, stepId, ...rest] = situation.slice(PREFIX.length).split(':');
  return folderId && stepId && rest.length === 0 ? { folderId, stepId } : null;
}
