//! A referral link is `/sign-up?referred=true&code=XXXX` (spec §2): the code it carries, if any.

/** The referral code of a sign-up address's query, or null when it is no referral link. */
export function referralCodeOf(search: URLSearchParams): string | null {
  if (search.get('referred') !== 'true') return null;
  const code = search.get('code')?.trim();
  return code ? code : null;
}
