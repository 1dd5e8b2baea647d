//! The account calls (spec §7 "Accounts"): the current password exchanged for
//! a password token, the profile changes (each refreshes `accounts/me` once it succeeded), the
//! optimistic communication-method change (spec §4, §8), the signed-in password change and the
//! events history, newest first, page by page.
import { api } from '../../../lib/api/api';
import { meApi } from '../../../lib/api/me';
import type {
  ActionLogPage,
  AddressChange,
  CodeSent,
  CommunicationMethodChange,
  EmailChange,
  NamesUpdate,
  PasswordResetRequest,
  PasswordToken,
  PasswordVerifyRequest,
  PhoneChange,
  TokenPair,
  UsernameChange,
} from '../../../lib/api/types';
import { historyParams, type HistoryFilters } from '../model/history';

/** Refresh the profile only after a change that happened. */
const meAfterSuccess = (_result: unknown, error: unknown): 'Me'[] => (error ? [] : ['Me']);

export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    verifyCurrentPassword: build.mutation<PasswordToken, PasswordVerifyRequest>({
      query: (body) => ({ url: 'accounts/password/verify/', method: 'POST', body }),
    }),
    updateNames: build.mutation<void, NamesUpdate>({
      query: (body) => ({ url: 'accounts/first-last-names/update/', method: 'PATCH', body }),
      invalidatesTags: meAfterSuccess,
    }),
    changeUsername: build.mutation<void, UsernameChange>({
      query: (body) => ({ url: 'accounts/username/change/', method: 'PATCH', body }),
      invalidatesTags: meAfterSuccess,
    }),
    /** Without `code`: 202 and a code mailed to the new address. With it: 204, changed. */
    changeEmail: build.mutation<CodeSent | null, EmailChange>({
      query: (body) => ({ url: 'accounts/email/change/', method: 'PATCH', body }),
      invalidatesTags: (_result, error, body) => (error || !body.code ? [] : ['Me']),
    }),
    /** The same two steps; the code goes by SMS to the new number. */
    changePhone: build.mutation<CodeSent | null, PhoneChange>({
      query: (body) => ({ url: 'accounts/phone-number/change/', method: 'PATCH', body }),
      invalidatesTags: (_result, error, body) => (error || !body.code ? [] : ['Me']),
    }),
    changeAddress: build.mutation<void, AddressChange>({
      query: (body) => ({ url: 'accounts/address/change/', method: 'PATCH', body }),
      invalidatesTags: meAfterSuccess,
    }),
    /**
     * Optimistic (spec §4 "Card actions"): the cached profile shows the new method at once; a
     * failure undoes that and fetches the profile again (spec §8), in case the server did change.
     */
    changeCommunicationMethod: build.mutation<void, CommunicationMethodChange>({
      query: (body) => ({ url: 'accounts/communication-method/change/', method: 'POST', body }),
      async onQueryStarted({ communication_method }, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          meApi.util.updateQueryData('me', undefined, (draft) => {
            draft.communicationMethod = communication_method;
          }),
        );
        try {
          await queryFulfilled;
        } catch {
          patch.undo();
          dispatch(api.util.invalidateTags(['Me']));
        }
      },
      invalidatesTags: meAfterSuccess,
    }),
    /** Signed in: the new password with a password token; answers the session's new tokens. */
    changePassword: build.mutation<TokenPair, PasswordResetRequest>({
      query: (body) => ({ url: 'accounts/password/reset/', method: 'POST', body }),
    }),
    history: build.infiniteQuery<ActionLogPage, HistoryFilters, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last) => (last.page * last.pageSize < last.count ? last.page + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({ url: 'action-logs/history/', params: historyParams(queryArg, pageParam) }),
    }),
  }),
});

export const {
  useVerifyCurrentPasswordMutation,
  useUpdateNamesMutation,
  useChangeUsernameMutation,
  useChangeEmailMutation,
  useChangePhoneMutation,
  useChangeAddressMutation,
  useChangeCommunicationMethodMutation,
  useChangePasswordMutation,
  useHistoryInfiniteQuery,
} = accountApi;
