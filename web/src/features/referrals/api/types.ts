//! The shareable-codes contract as the screens use it (responses camelCased by the base query,
//! request bodies snake_case). Written by hand until the gateway's OpenAPI document carries the
//! referral endpoints; then these become aliases of the generated types.

export type InvitationChannel = 'email' | 'sms';
export type InvitationStatus = 'invited' | 'signed_up' | 'rewarded';
export type InvitationSorting = 'newest' | 'oldest' | 'name' | 'status';

/** GET shareable-codes/referral-info/: the user's code, the programme's numbers and their counts (cents). */
export interface ReferralInfo {
  code: string;
  type: string;
  link: string;
  referrerReward: number;
  friendReward: number;
  monthlyCap: number;
  invited: number;
  signedUp: number;
  rewarded: number;
  earned: number;
}

export interface Invitation {
  id: string;
  channel: InvitationChannel;
  /** The e-mail address or the phone number ('+1 5550100123') the invitation went to. */
  sentTo: string;
  name: string;
  status: InvitationStatus;
  createdAt: string;
  lastSentAt: string;
  sends: number;
  /** When it may be sent again; null when nothing holds it back. */
  resendAfter: string | null;
}

export interface InvitationList {
  invitations: Invitation[];
}

/** POST shareable-codes/individual/create/: only the non-empty fields. */
export interface CreateInvitationRequest {
  email?: string;
  phone_number?: { country_code: string; national_number: string };
  name?: string;
}

export interface ReferralCheck {
  valid: boolean;
  firstName: string;
}
