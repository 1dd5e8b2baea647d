//! The contributor's proof of e-mail: the contribution token the verification answers, kept in
//! sessionStorage under `evidentia.contribution` as {folderId, token, expiresAt} (never in the
//! persisted store: it ends with the tab), and the link the contributor came with, so a screen
//! that finds no token can send them back to the verification of the same link.

export const CONTRIBUTION_KEY = 'evidentia.contribution';
export const CONTRIBUTION_LINK_KEY = 'evidentia.contribution-link';

export interface ContributionSession {
  folderId: string;
  token: string;
  expiresAt: string;
}

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    return undefined;
  }
}

function read(key: string): unknown {
  try {
    const raw = storage()?.getItem(key);
    return raw ? (JSON.parse(raw) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

export function saveContribution(session: ContributionSession): void {
  storage()?.setItem(CONTRIBUTION_KEY, JSON.stringify(session));
}

/** The token for `folderId`, unless there is none, it is for another folder, or it has expired. */
export function contributionToken(folderId: string, now: Date = new Date()): string | undefined {
  const value = read(CONTRIBUTION_KEY);
  if (!value || typeof value !== 'object') return undefined;
  const { folderId: forFolder, token, expiresAt } = value as Partial<ContributionSession>;
  if (forFolder !== folderId || typeof token !== 'string' || !token) return undefined;
  if (typeof expiresAt === 'string' && Date.parse(expiresAt) <= now.getTime()) return undefined;
  return token;
}

export function forgetContribution(): void {
  storage()?.removeItem(CONTRIBUTION_KEY);
}

export function rememberLink(folderId: string, link: string): void {
  storage()?.setItem(CONTRIBUTION_LINK_KEY, JSON.stringify({ folderId, link }));
}

/** The link the contributor came with to `folderId`, when known. */
export function rememberedLink(folderId: string): string | undefined {
  const value = read(CONTRIBUTION_LINK_KEY);
  if (!value || typeof value !== 'object') return undefined;
  const { folderId: forFolder, link } = value as { folderId?: unknown; link?: unknown };
  return forFolder === folderId && typeof link === 'string' && link ? link : undefined;
}

/** The verification screen of `folderId`, with the link when known. */
export function verificationPath(folderId: string, link = rememberedLink(folderId)): string {
  const path = `/organization-sharing/verification/${encodeURIComponent(folderId)}`;
  return link ? `${path}?link=${encodeURIComponent(link)}` : path;
}

export const folderPath = (folderId: string) => `/organization-sharing/folder/${encodeURIComponent(folderId)}`;
export const evidencePath = (folderId: string, stepId: string) =>
  `/organization-sharing/evidence/${encodeURIComponent(folderId)}/${encodeURIComponent(stepId)}`;
