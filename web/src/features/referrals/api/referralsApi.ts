//! The shareable-codes calls of spec §7: the user's referral info, the invitations (at most 50,
//! sorted by the server), inviting a friend, resending and deleting an invitation, and the public
//! check of a referral code the sign-up screen makes.
import { api } from '../../../lib/api/api';
import type { CreateInvitationRequest, Invitation, InvitationList, InvitationSorting, ReferralCheck, ReferralInfo } from './types';

/** An individual user's invitations are of the `individual` type (spec §7: the type's default). */
const CODE_TYPE = 'individual';

const withTags = api.enhanceEndpoints({ addTagTypes: ['ReferralInfo', 'Invitations'] });

export const referralsApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    referralInfo: build.query<ReferralInfo, void>({
      query: () => 'shareable-codes/referral-info/',
      providesTags: ['ReferralInfo'],
    }),
    invitations: build.query<InvitationList, InvitationSorting>({
      query: (sorting) => ({ url: 'shareable-codes/retrieve/', params: { sorting } }),
      providesTags: ['Invitations'],
    }),
    createInvitation: build.mutation<Invitation, CreateInvitationRequest>({
      query: (body) => ({ url: `shareable-codes/${CODE_TYPE}/create/`, method: 'POST', body }),
      // The counts on Refer a Friend include the new invitation.
      invalidatesTags: ['Invitations', 'ReferralInfo'],
    }),
    resendInvitation: build.mutation<Invitation, string>({
      query: (id) => ({ url: `shareable-codes/${encodeURIComponent(id)}/resend/`, method: 'POST' }),
      invalidatesTags: ['Invitations'],
    }),
    deleteInvitation: build.mutation<void, string>({
      query: (id) => ({ url: `shareable-codes/${encodeURIComponent(id)}/delete/`, method: 'DELETE' }),
      invalidatesTags: ['Invitations', 'ReferralInfo'],
    }),
    // A POST that changes nothing: a query, so the sign-up screen checks a code once however often
    // it renders.
    checkReferralCode: build.query<ReferralCheck, string>({
      query: (code) => ({ url: 'shareable-codes/check/', method: 'POST', body: { code } }),
    }),
  }),
});

export const {
  useReferralInfoQuery,
  useInvitationsQuery,
  useCreateInvitationMutation,
  useResendInvitationMutation,
  useDeleteInvitationMutation,
  useCheckReferralCodeQuery,
} = referralsApi;
