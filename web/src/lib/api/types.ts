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
