//! The contact-us call (issue 5): `POST support/contact/`, open to anyone; 202 with `{}`.
import { api } from '../../../lib/api/api';

export interface ContactRequest {
  name: string;
  email: string;
  subject: string;
  message: string;
}

export const supportApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendContactMessage: build.mutation<Record<string, never>, ContactRequest>({
      query: (body) => ({ url: 'support/contact/', method: 'POST', body }),
    }),
  }),
});

export const { useSendContactMessageMutation } = supportApi;
