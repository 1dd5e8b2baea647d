//! Test helpers of the payments screens: a store with the real API, ui, snackbar and sharing
//! draft slices; a fetch answered from a table of routes that records each call with its query,
//! body and headers; a memory router around the screen under test.
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { api } from '../../lib/api/api';
import { loginInfoSlice, tokensReceived } from '../../lib/session/loginInfoSlice';
import { sharingDraftSlice } from '../../lib/sharing/draft';
import { snackbarSlice, uiSlice } from '../../lib/ui/uiSlice';

export function makePaymentsStore() {
  const store = configureStore({
    reducer: combineReducers({
      [api.reducerPath]: api.reducer,
      loginInfo: loginInfoSlice.reducer,
      ui: uiSlice.reducer,
      snackbar: snackbarSlice.reducer,
      sharingDraft: sharingDraftSlice.reducer,
    }),
    middleware: (getDefault) => getDefault({ serializableCheck: false }).concat(api.middleware),
  });
  store.dispatch(tokensReceived({ access: 'a', refresh: 'r' }));
  return store;
}
export type PaymentsStore = ReturnType<typeof makePaymentsStore>;

export interface ApiCall {
  method: string;
  path: string;
  /** The query string, with its '?' ('' without one). */
  search: string;
  body: unknown;
  /** The request body as sent. */
  text: string;
  idempotencyKey: string | null;
  headers: Headers;
}

export interface Answer {
  status: number;
  body: unknown;
}

export const answer = (status: number, body: unknown): Answer => ({ status, body });

type Route = unknown | ((call: ApiCall) => unknown);

/**
 * Answers 'METHOD path/' from `routes` (a value, an `answer(status, body)`, or a function of the
 * call); `answer(204, null)` is a bodiless 204.
 */
export function serve(routes: Record<string, Route>) {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
      const url = new URL(request.url, 'http://localhost');
      const text = request.method === 'GET' ? '' : await request.clone().text();
      const call = {
        method: request.method,
        path: url.pathname.replace(/^\/api\//, ''),
        body: text ? (JSON.parse(text) as unknown) : undefined,
        idempotencyKey: request.headers.get('Idempotency-Key'),
      } as ApiCall;
      // Beside the four fields that tests compare whole (toEqual): not enumerable, so those
      // comparisons still see only the four.
      Object.defineProperties(call, { search: { value: url.search }, text: { value: text }, headers: { value: request.headers } });
      calls.push(call);
      const route = routes[`${call.method} ${call.path}`];
      if (route === undefined) return Response.json({ errors: [{ message: 'Not found.', code: 'not_found' }] }, { status: 404 });
      const value = typeof route === 'function' ? (route as (c: ApiCall) => unknown)(call) : route;
      if (value && typeof value === 'object' && 'status' in value && 'body' in value) {
        const { status, body } = value as Answer;
        // A 204 has no body (Response.json cannot make one).
        return status === 204 ? new Response(null, { status }) : Response.json(body, { status });
      }
      return Response.json(value);
    }),
  );
  class RelativeRequest extends Request {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, 'http://localhost').href : input, init);
    }
  }
  vi.stubGlobal('Request', RelativeRequest);
  return calls;
}

export function renderAt(store: PaymentsStore, routes: RouteObject[], initialEntry: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...view, router };
}

export const apiCard = (overrides: Record<string, unknown> = {}) => ({
  id: 'pm_visa',
  brand: 'visa',
  last4: '4242',
  fingerprint: 'fp1',
  exp_month: 12,
  exp_year: 2030,
  default_method: true,
  wallet: false,
  ...overrides,
});

export const apiStoredAccount = (overrides: Record<string, unknown> = {}) => ({
  active: true,
  payment_method_id: 'pm_visa',
  brand: 'visa',
  last4: '4242',
  auto_topping_up_amount: 2500,
  balance: 2500,
  top_up_error: null,
  ...overrides,
});

export const NO_WALLET = apiStoredAccount({ active: false, payment_method_id: null, brand: null, last4: null, auto_topping_up_amount: 0, balance: 0 });
