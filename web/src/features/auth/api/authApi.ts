//! Sign-up, log-in and log-out calls (spec §7 "Accounts"), and joining an organization with an
//! invite code (contract "Organizations": the invite preview and the join are public).
import { api } from '../../../lib/api/api';
import type {
  AvailabilityRequest,
  AvailabilityResponse,
  CreateAccountRequest,
  InvitePreview,
  JoinOrganizationRequest,
  LoginRequest,
  SendCodeResponse,
  TokenPair,
  VerifyCodeResponse,
} from '../../../lib/api/types';

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    checkAvailability: build.mutation<AvailabilityResponse, AvailabilityRequest>({
      query: (body) => ({ url: 'accounts/email-username-phone-number/verify/', method: 'POST', body }),
    }),
    sendCode: build.mutation<SendCodeResponse, { email: string }>({
      query: ({ email }) => ({ url: 'accounts/confirmation-code/send/', method: 'POST', body: { email, purpose: 'sign_up' } }),
    }),
    verifyCode: build.mutation<VerifyCodeResponse, { email: string; code: string }>({
      query: ({ email, code }) => ({
        url: 'accounts/confirmation-code/verify/',
        method: 'POST',
        body: { email, code, purpose: 'sign_up' },
      }),
    }),
    /**
     * With `organization_name` the account is an organization's and its owner; with
     * `referral_code` (a checked referral link's) the friend who invited the user is credited.
     */
    createAccount: build.mutation<TokenPair, CreateAccountRequest>({
      query: (body) => ({ url: 'accounts/create/', method: 'POST', body }),
    }),
    login: build.mutation<TokenPair, LoginRequest>({
      query: (body) => ({ url: 'accounts/login/', method: 'POST', body }),
    }),
    invitePreview: build.query<InvitePreview, string>({
      query: (code) => `accounts/organization/invites/${encodeURIComponent(code)}/`,
    }),
    joinOrganization: build.mutation<TokenPair, JoinOrganizationRequest>({
      query: (body) => ({ url: 'accounts/organization/join/', method: 'POST', body }),
    }),
  }),
});

export const {
  useCheckAvailabilityMutation,
  useSendCodeMutation,
  useVerifyCodeMutation,
  useCreateAccountMutation,
  useLoginMutation,
  useInvitePreviewQuery,
  useJoinOrganizationMutation,
} = authApi;
