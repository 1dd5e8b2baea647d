//! Test helpers of the cards feature: a store with the real API against a fetch answered by a
//! table of routes ('METHOD path' -> body, or a function of the call; [status, body] for an
//! error), and a memory router around the screen under test.
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { api } from '../../../lib/api/api';
import { loginInfoSlice, tokensReceived } from '../../../lib/session/loginInfoSlice';
import { snackbarSlice } from '../../../lib/ui/uiSlice';

export function makeTestStore() {
  const store = configureStore({
    reducer: combineReducers({ [api.reducerPath]: api.reducer, loginInfo: loginInfoSlice.reducer, snackbar: snackbarSlice.reducer }),
    middleware: (getDefault) => getDefault({ serializableCheck: false }).concat(api.middleware),
  });
  store.dispatch(tokensReceived({ access: 'a', refresh: 'r' }));
  return store;
}
export type TestStore = ReturnType<typeof makeTestStore>;

export interface Call {
  method: string;
  path: string;
  body: unknown;
  headers: Headers;
}

type Answer = unknown | [number, unknown];

export function serveApi(routes: Record<string, Answer | ((call: Call) => Answer)>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
      const url = new URL(request.url, 'http://localhost');
      const text = await request.clone().text();
      const call = { method: request.method, path: url.pathname.replace(/^\/api\//, ''), body: text ? JSON.parse(text) : undefined, headers: request.headers };
      calls.push(call);
      const route = routes[`${call.method} ${call.path}`];
      if (route === undefined) return Response.json({ errors: [{ message: 'Not found.', code: 'not_found' }] }, { status: 404 });
      const answer = typeof route === 'function' ? (route as (c: Call) => Answer)(call) : route;
      if (Array.isArray(answer) && answer.length === 2 && typeof answer[0] === 'number') return Response.json(answer[1], { status: answer[0] });
      return Response.json(answer);
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

export function renderRoutes(store: TestStore, routes: RouteObject[], initialEntry: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...view, router };
}

export const apiCard = (overrides: Record<string, unknown> = {}) => ({
  id: 'pm_1',
  brand: 'visa',
  last4: '4242',
  fingerprint: 'fp_1',
  exp_month: 12,
  exp_year: 2030,
  default_method: true,
  wallet: false,
  ...overrides,
});
