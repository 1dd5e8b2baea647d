//! Request and response types, generated from the gateway's OpenAPI document (`npm run gen:api`).
import type { components } from './schema';
import type { Camelize } from '../case';

type Schemas = components['schemas'];

export type ErrorBody = Schemas['ErrorBody'];
export type TokenPair = Schemas['TokenPair'];
export type AvailabilityRequest = Schemas['AvailabilityRequest'];
export type AvailabilityResponse = Camelize<Schemas['AvailabilityResponse']>;
export type SendCodeRequest = Schemas['SendCodeRequest'];
export type SendCodeResponse = Camelize<Schemas['SendCodeResponse']>;
export type VerifyCodeRequest = Schemas['VerifyCodeRequest'];
export type VerifyCodeResponse = Camelize<Schemas['VerifyCodeResponse']>;
export type CreateAccountRequest = Schemas['CreateAccountRequest'];
export type LoginRequest = Schemas['LoginRequest'];
export type Profile = Camelize<Schemas['Profile']>;

// --- organization (issue 5): organizations, participants, invites, joining (contract "Organizations") ---
export type OrganizationSummary = Camelize<Schemas['OrganizationSummary']>;
export type Organization = Camelize<Schemas['Organization']>;
export type Participants = Camelize<Schemas['Participants']>;
export type Participant = Camelize<Schemas['Participant']>;
export type Invite = Camelize<Schemas['Invite']>;
export type InviteRequest = Schemas['InviteRequest'];
export type InvitePreview = Camelize<Schemas['InvitePreview']>;
export type JoinOrganizationRequest = Schemas['JoinOrganizationRequest'];
export type RoleChange = Schemas['RoleChange'];
// --- end organization ---
