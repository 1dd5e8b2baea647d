//! The public recovery calls (spec §7 "Accounts": recovery and deletion):
//! a forgotten username sent by e-mail or SMS; a forgotten password (the account's options, a
//! password_reset code, the new password); and recovering a deleted account.
import { api } from '../../../lib/api/api';
import type {
  PasswordResetRequest,
  RecoverAccountRequest,
  RecoveryOptions,
  SendCodeRequest,
  SendCodeResponse,
  SentTo,
  TokenPair,
  UsernameByEmailRequest,
  UsernameByPhoneRequest,
  UsernameHasPhoneRequest,
  VerifyCodeRequest,
  VerifyCodeResponse,
} from '../../../lib/api/types';

/** Where a password_reset code goes. */
export type ResetChannel = 'email' | 'sms';

/** A username or an e-mail address: the recovery calls take either in `username`. */
interface Account {
  username: string;
}

export const recoveryApi = api.injectEndpoints({
  endpoints: (build) => ({
    recoveryOptions: build.mutation<RecoveryOptions, UsernameHasPhoneRequest>({
      query: (body) => ({ url: 'accounts/username-has-phone/verify/', method: 'POST', body }),
    }),
    sendUsernameByEmail: build.mutation<SentTo, UsernameByEmailRequest>({
      query: (body) => ({ url: 'accounts/username-by-email/verify/', method: 'POST', body }),
    }),
    sendUsernameByPhone: build.mutation<SentTo, UsernameByPhoneRequest>({
      query: (body) => ({ url: 'accounts/username-by-phone/verify/', method: 'POST', body }),
    }),
    sendPasswordResetCode: build.mutation<SendCodeResponse, Account & { channel: ResetChannel }>({
      query: ({ username, channel }) => ({
        url: 'accounts/confirmation-code/send/',
        method: 'POST',
        body: { username, purpose: 'password_reset', channel } satisfies SendCodeRequest,
      }),
    }),
    verifyPasswordResetCode: build.mutation<VerifyCodeResponse, Account & { code: string }>({
      query: ({ username, code }) => ({
        url: 'accounts/confirmation-code/verify/',
        method: 'POST',
        body: { username, code, purpose: 'password_reset' } satisfies VerifyCodeRequest,
      }),
    }),
    resetForgottenPassword: build.mutation<TokenPair, Account & { verificationToken: string; newPassword: string }>({
      query: ({ username, verificationToken, newPassword }) => ({
        url: 'accounts/password/reset/',
        method: 'POST',
        body: { username, verification_token: verificationToken, new_password: newPassword } satisfies PasswordResetRequest,
      }),
    }),
    recoverAccount: build.mutation<TokenPair, RecoverAccountRequest>({
      query: (body) => ({ url: 'accounts/recover/', method: 'POST', body }),
    }),
  }),
});

export const {
  useRecoveryOptionsMutation,
  useSendUsernameByEmailMutation,
  useSendUsernameByPhoneMutation,
  useSendPasswordResetCodeMutation,
  useVerifyPasswordResetCodeMutation,
  useResetForgottenPasswordMutation,
  useRecoverAccountMutation,
} = recoveryApi;
