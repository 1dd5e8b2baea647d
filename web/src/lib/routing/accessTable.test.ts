import { describe, expect, it } from 'vitest';
import { ACCESS_TABLE, accessOf, decide, HOME, returnPath, START } from './accessTable';

// A concrete URL for each pattern of the table.
const concrete = (path: string) => path.replace(/:[A-Za-z]+/g, 'x1');

describe('the access table of spec §2', () => {
  it('covers every path of the route table exactly once', () => {
    const paths = ACCESS_TABLE.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    // The spec's signed-in routes and ours: /chats and /chats/:sharingId (the conversations).
    expect(paths).toHaveLength(9 + 53 + 14);
  });

  it.each(ACCESS_TABLE)('$path ($access) guards both kinds of visitor', ({ path, access }) => {
    const url = concrete(path);
    expect(accessOf(url)).toBe(access);
    const anonymous = decide(url, '', false);
    const member = decide(url, '', true);
    switch (access) {
      case 'public-only':
        expect(anonymous).toEqual({ kind: 'render' });
        expect(member).toEqual({ kind: 'redirect', to: HOME });
        break;
      case 'signed-in':
        expect(anonymous).toEqual({ kind: 'redirect', to: START, state: { from: url } });
        expect(member).toEqual({ kind: 'render' });
        break;
      case 'open':
        expect(anonymous).toEqual({ kind: 'render' });
        expect(member).toEqual({ kind: 'render' });
        break;
    }
  });

  it('remembers the origin with its query', () => {
    expect(decide('/evidence', '?situation=car', false)).toEqual({
      kind: 'redirect',
      to: START,
      state: { from: '/evidence?situation=car' },
    });
  });

  it('shows sign-up with referred=true to a signed-in user, who is then logged out', () => {
    expect(decide('/sign-up', '?referred=true', true)).toEqual({ kind: 'render-after-logout' });
    expect(decide('/sign-up', '?referred=false', true)).toEqual({ kind: 'redirect', to: HOME });
    expect(decide('/sign-up', '?referred=true', false)).toEqual({ kind: 'render' });
  });

  it('leaves a user who signed in on a public-only page to that page, which goes on itself', () => {
    expect(decide('/log-in', '', true, true)).toEqual({ kind: 'render' });
    expect(decide('/sign-up', '', true, true)).toEqual({ kind: 'render' });
    expect(decide('/sign-up', '?referred=true', true, true)).toEqual({ kind: 'render' });
    expect(decide('/log-in', '', true, false)).toEqual({ kind: 'redirect', to: HOME });
  });

  it('returns to a remembered page of the app, else home', () => {
    expect(returnPath({ from: '/events-history' })).toBe('/events-history');
    expect(returnPath({ from: '/evidence?situation=car' })).toBe('/evidence?situation=car');
    expect(returnPath({ from: '/faq' })).toBe('/faq');
    expect(returnPath(null)).toBe(HOME);
    expect(returnPath({ from: 42 })).toBe(HOME);
    expect(returnPath({ from: '/log-in' })).toBe(HOME);
    expect(returnPath({ from: '/no/such/page' })).toBe(HOME);
    expect(returnPath({ from: '//elsewhere.example/dashboard/home' })).toBe(HOME);
    expect(returnPath({ from: 'https://elsewhere.example/' })).toBe(HOME);
    expect(returnPath(null, '/walkthrough')).toBe('/walkthrough');
  });

  it('sends unknown paths to the start screen', () => {
    expect(decide('/no/such/page', '', true)).toEqual({ kind: 'redirect', to: START });
    expect(decide('/no/such/page', '', false)).toEqual({ kind: 'redirect', to: START });
  });
});
