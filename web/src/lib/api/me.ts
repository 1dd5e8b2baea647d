//! The signed-in user's profile, used across features.
import { api } from './api';
import type { Profile } from './types';

export const meApi = api.injectEndpoints({
  endpoints: (build) => ({
    me: build.query<Profile, void>({ query: () => 'accounts/me/', providesTags: ['Me'] }),
  }),
});

export const { useMeQuery } = meApi;
