//! The shareable-codes types, generated from the gateway's OpenAPI document (`npm run gen:api`):
//! responses camelCased as the base query gives them, request bodies snake_case. The document
//! types `channel`, `status` and `sorting` as strings; the values the screens know are named here.
import type { Camelize } from '../../../lib/case';
import type { components } from '../../../lib/api/schema';

type Schemas = components['schemas'];

/** GET shareable-codes/referral-info/: the user's code, the programme's numbers and their counts (cents). */
export type ReferralInfo = Camelize<Schemas['ReferralInfo']>;
export type Invitation = Camelize<Schemas['Invitation']>;
export type InvitationList = Camelize<Schemas['Invitations']>;
/** POST shareable-codes/individual/create/: only the non-empty fields. */
export type CreateInvitationRequest = Schemas['NewInvitation'];
export type ReferralCheck = Camelize<Schemas['ReferralCheck']>;

export type InvitationChannel = 'email' | 'sms';
export type InvitationStatus = 'invited' | 'signed_up' | 'rewarded';
export type InvitationSorting = 'newest' | 'oldest' | 'name' | 'status';
