//! The name an authenticated copy is generated for: the owner's first and last name from
//! accounts/me, else the username (as the sharing service writes it on the copy).
import type { Profile } from '../../../lib/api/types';

export function ownerName(profile: Pick<Profile, 'firstName' | 'lastName' | 'username'>): string {
  return [profile.firstName, profile.lastName].map((part) => part.trim()).filter(Boolean).join(' ') || profile.username;
}
