//! The organization calls (contract "Organizations"): the user's organization and role, its
//! participants and pending invites, inviting, revoking, changing a role, removing a participant.
//! Every change refreshes the participants and the profile (`Me`, which carries the organization).
import { api } from '../../../lib/api/api';
import { errorStatus } from '../../../lib/api/errors';
import { useMeQuery } from '../../../lib/api/me';
import type { Invite, InviteRequest, Organization, Participants } from '../../../lib/api/types';
import type { InvitableRole } from '../../../lib/organization/roles';

const organizationTags = api.enhanceEndpoints({ addTagTypes: ['Organization', 'Participants'] });

export const organizationApi = organizationTags.injectEndpoints({
  endpoints: (build) => ({
    /** 404 when the user belongs to no organization. */
    organization: build.query<Organization, void>({ query: () => 'accounts/organization/', providesTags: ['Organization'] }),
    participants: build.query<Participants, void>({
      query: () => 'accounts/organization/participants/',
      providesTags: ['Participants'],
    }),
    createInvite: build.mutation<Invite, InviteRequest>({
      query: (body) => ({ url: 'accounts/organization/invites/', method: 'POST', body }),
      invalidatesTags: ['Participants', 'Me'],
    }),
    revokeInvite: build.mutation<void, string>({
      query: (id) => ({ url: `accounts/organization/invites/${encodeURIComponent(id)}/`, method: 'DELETE' }),
      invalidatesTags: ['Participants', 'Me'],
    }),
    changeRole: build.mutation<void, { userId: string; role: InvitableRole }>({
      query: ({ userId, role }) => ({
        url: `accounts/organization/participants/${encodeURIComponent(userId)}/`,
        method: 'PATCH',
        body: { role },
      }),
      invalidatesTags: ['Participants', 'Me'],
    }),
    removeParticipant: build.mutation<void, string>({
      query: (userId) => ({ url: `accounts/organization/participants/${encodeURIComponent(userId)}/`, method: 'DELETE' }),
      invalidatesTags: ['Participants', 'Me'],
    }),
    /** Ends this session on the server before an individual goes to sign up as an organization. */
    endSessionForOrganizationSignUp: build.mutation<void, { refresh: string }>({
      query: (body) => ({ url: 'accounts/logout/', method: 'POST', body }),
    }),
  }),
});

/**
 * The user's organization and role, and `outside` when the user is in none: said by the profile
 * when it is at hand (nothing is asked then), else by the call's 404.
 */
export function useOwnOrganization() {
  const me = useMeQuery();
  const known = me.data !== undefined && !me.data.organization;
  // The profile is usually at hand already; while it loads, it is waited for.
  const organization = organizationApi.useOrganizationQuery(undefined, { skip: known || me.isLoading });
  return {
    ...organization,
    isLoading: organization.isLoading || (me.isLoading && !organization.data),
    outside: known || (organization.isError && errorStatus(organization.error) === 404),
  };
}

export const {
  useOrganizationQuery,
  useParticipantsQuery,
  useCreateInviteMutation,
  useRevokeInviteMutation,
  useChangeRoleMutation,
  useRemoveParticipantMutation,
  useEndSessionForOrganizationSignUpMutation,
} = organizationApi;
