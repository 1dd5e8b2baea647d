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

// --- organization: organizations, participants, invites, joining (contract "Organizations") ---
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

// --- account: password verification, profile changes, events history (contract "Password verification", "Profile changes", "History") ---
// PasswordVerifyRequest/PasswordToken serve every password-confirmed action (account deletion too); PasswordResetRequest also forgot-password.
export type PasswordVerifyRequest = Schemas['PasswordVerifyRequest'];
export type PasswordToken = Camelize<Schemas['PasswordToken']>;
export type PasswordResetRequest = Schemas['PasswordResetRequest'];
export type NamesUpdate = Schemas['NamesUpdate'];
export type UsernameChange = Schemas['UsernameChange'];
export type EmailChange = Schemas['EmailChange'];
export type PhoneChange = Schemas['PhoneChange'];
export type CodeSent = Camelize<Schemas['CodeSent']>;
export type AddressChange = Schemas['Address'];
export type CommunicationMethodChange = Schemas['CommunicationMethodChange'];
export type ActionLogPage = Camelize<Schemas['ActionLogPage']>;
export type ActionLog = Camelize<Schemas['ActionLog']>;
// --- end account ---

// --- recovery: forgotten username and password, deletion, recovering a deleted account (contract "Recovery", "Deletion") ---
export type UsernameHasPhoneRequest = Schemas['UsernameHasPhoneRequest'];
export type RecoveryOptions = Camelize<Schemas['RecoveryOptions']>;
export type UsernameByEmailRequest = Schemas['UsernameByEmailRequest'];
export type UsernameByPhoneRequest = Schemas['UsernameByPhoneRequest'];
export type SentTo = Camelize<Schemas['SentTo']>;
export type DeleteReason = Camelize<Schemas['DeleteReason']>;
export type DeleteAccountRequest = Schemas['DeleteAccountRequest'];
export type DeleteAccountResponse = Camelize<Schemas['DeleteAccountResponse']>;
export type RecoverAccountRequest = Schemas['RecoverAccountRequest'];
// --- end recovery ---
