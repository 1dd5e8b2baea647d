//! The fetch table every test answers the API from: `serve` stubs `fetch` with a table of
//! 'METHOD path/' routes (or one function of the call) and records each call with its query, body
//! and headers; `holdCalls` holds some back; `queriesOf` reads the query strings sent.
import { vi } from 'vitest';

const ORIGIN = 'http://localhost';

export interface ApiCall {
  method: string;
  /** The path under /api/, as in the table ('payments/config/'). */
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

/** An answer with a status: `answer(400, { errors: [...] })`; `answer(204, null)` is a bodiless 204. */
export const answer = (status: number, body: unknown): Answer => ({ status, body });

/** The contract's bodiless 204. */
export const noContent = () => answer(204, null);

/** A route's answer: a value (200 with it as JSON), an `answer(status, body)`, or a function of the call. */
export type Route = unknown | ((call: ApiCall) => unknown);

/** A function of every call instead of a table; `undefined` is a 404. */
export type Router = (call: ApiCall) => unknown;

const NOT_FOUND = { errors: [{ message: 'Not found.', code: 'not_found' }] };

function isAnswer(value: unknown): value is Answer {
  return Boolean(value && typeof value === 'object' && 'status' in value && 'body' in value);
}

// Node's Request refuses the app's relative '/api/...' URLs: resolve them against a test origin.
class RelativeRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, ORIGIN).href : input, init);
  }
}

/**
 * Answers 'METHOD path/' from `routes` (an unknown route is a 404), or every call from `router`;
 * returns the calls, in order. Undo with `vi.unstubAllGlobals()`.
 */
export function serve(routes: Record<string, Route> | Router): ApiCall[] {
  const calls: ApiCall[] = [];
  const find: Router =
    typeof routes === 'function'
      ? routes
      : (call) => {
          const route = routes[`${call.method} ${call.path}`];
          return typeof route === 'function' ? (route as Router)(call) : route;
        };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), ORIGIN), init);
      const url = new URL(request.url, ORIGIN);
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
      const value = find(call);
      if (value === undefined) return Response.json(NOT_FOUND, { status: 404 });
      if (isAnswer(value)) {
        // A 204 has no body (Response.json cannot make one).
        return value.status === 204 ? new Response(null, { status: value.status }) : Response.json(value.body, { status: value.status });
      }
      return Response.json(value);
    }),
  );
  vi.stubGlobal('Request', RelativeRequest);
  return calls;
}

/**
 * Holds back the calls `matches` picks (after `serve` stubbed fetch) until `release()`; the rest go
 * through at once.
 */
export function holdCalls(matches: (method: string, path: string) => boolean) {
  const served = globalThis.fetch;
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const path = new URL(request.url, ORIGIN).pathname.replace(/^\/api\//, '');
    if (matches(request.method, path)) await gate;
    return served(input, init);
  });
  return { release: () => release() };
}

/** The query strings of the calls to `path`, in order. */
export function queriesOf(path: string): string[] {
  const fetchMock = vi.mocked(globalThis.fetch);
  return fetchMock.mock.calls
    .map(([input]) => new URL(input instanceof Request ? input.url : String(input), ORIGIN))
    .filter((url) => url.pathname === `/api/${path}`)
    .map((url) => url.search);
}
