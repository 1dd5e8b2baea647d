// The access guard around the real start and log-in screens (spec §2 "Access groups"): an
// anonymous visitor of a signed-in-only page is sent to the start screen and, after logging in,
// lands on that page (with its query), not on Home; a signed-in visitor of a public-only page is
// sent home; an origin that is not a page of the app is ignored.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTestStore, renderAt, serve } from '../testing';
import { LogInPage } from '../features/auth/routes/LogInPage';
import { StartPage } from '../features/auth/routes/StartPage';

afterEach(() => vi.unstubAllGlobals());

function openApp(at: string, { signedIn }: { signedIn: boolean }) {
  serve({ 'POST accounts/login/': { access: 'a1', refresh: 'r1' } });
  const store = makeTestStore({ signedIn });
  const view = renderAt(
    store,
    [
      { path: '/', element: <StartPage /> },
      { path: '/log-in', element: <LogInPage /> },
      { path: '/dashboard/home', element: <p>Home screen</p> },
      { path: '/events-history', element: <p>History screen</p> },
      { path: '/evidence', element: <p>Evidence screen</p> },
    ],
    at,
    { guarded: true },
  );
  return { ...view, store };
}

async function logInFromStart() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('link', { name: 'Log In' }));
  await user.type(screen.getByLabelText('Username or Email'), 'ann');
  await user.type(screen.getByLabelText('Password'), 'Secret12#');
  await user.click(screen.getByRole('button', { name: 'Log In' }));
}

describe('remembering the origin (spec §2)', () => {
  it('sends an anonymous visitor to the start screen and back to the page after logging in', async () => {
    const { router, store } = openApp('/events-history', { signedIn: false });
    await screen.findByRole('link', { name: 'Sign Up' });
    expect(router.state.location.pathname).toBe('/');
    await logInFromStart();
    await screen.findByText('History screen');
    expect(store.getState().loginInfo.accessToken).toBe('a1');
    // Nothing sends the user on to Home afterwards.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(router.state.location.pathname).toBe('/events-history');
    expect(screen.queryByText('Home screen')).not.toBeInTheDocument();
  });

  it('keeps the query of the remembered page', async () => {
    const { router } = openApp('/evidence?situation=car', { signedIn: false });
    await logInFromStart();
    await screen.findByText('Evidence screen');
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/evidence?situation=car');
  });

  it('goes home after logging in without an origin', async () => {
    const { router } = openApp('/', { signedIn: false });
    await logInFromStart();
    await screen.findByText('Home screen');
    expect(router.state.location.pathname).toBe('/dashboard/home');
  });

  it('sends a signed-in visitor of the log-in screen home, origin or not', async () => {
    const { router } = openApp('/log-in', { signedIn: true });
    await screen.findByText('Home screen');
    void router.navigate('/log-in', { state: { from: '/events-history' } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/home'));
  });
});
