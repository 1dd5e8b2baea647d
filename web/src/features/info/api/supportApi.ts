//! The contact-us call: `POST support/contact/`, open to anyone; 202 with `{}`.
import { api } from '../../../lib/api/api';
import type { components } from '../../../lib/api/schema';

export type ContactRequest = components['schemas']['ContactMessage'];

export const supportApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendContactMessage: build.mutation<Record<string, never>, ContactRequest>({
      query: (body) => ({ url: 'support/contact/', method: 'POST', body }),
    }),
  }),
});

export const { useSendContactMessageMutation } = supportApi;
