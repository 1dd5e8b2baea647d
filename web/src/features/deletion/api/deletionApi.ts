//! The account deletion calls (spec §7 "Accounts": deletion): the reasons, the
//! password check that yields a password token, and the deletion itself.
import { api } from '../../../lib/api/api';
import type {
  DeleteAccountRequest,
  DeleteAccountResponse,
  DeleteReason,
  PasswordToken,
  PasswordVerifyRequest,
} from '../../../lib/api/types';

export const deletionApi = api.injectEndpoints({
  endpoints: (build) => ({
    deleteReasons: build.query<DeleteReason[], void>({
      query: () => ({ url: 'accounts/delete-reasons/', params: { delete_type: 'soft_delete' } }),
    }),
    verifyPasswordToDelete: build.mutation<PasswordToken, PasswordVerifyRequest>({
      query: (body) => ({ url: 'accounts/password/verify/', method: 'POST', body }),
    }),
    deleteAccount: build.mutation<DeleteAccountResponse, DeleteAccountRequest>({
      query: (body) => ({ url: 'accounts/delete/', method: 'POST', body }),
    }),
  }),
});

export const { useDeleteReasonsQuery, useVerifyPasswordToDeleteMutation, useDeleteAccountMutation } = deletionApi;
