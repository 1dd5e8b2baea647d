// Account deletion across its three screens: what deleting means, the reasons (from the server;
// 'Other' needs details), the confirm screen (password -> password token -> delete), the device
// logged out on the start screen with the recoverable-until date. The choice survives Back and a
// reload (the location state); the confirm screen without one goes to the reasons.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InitialEntry } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve, type ApiCall } from '../../../testing';
import { SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { choiceState, DELETION_PATHS } from '../model/choice';
import { DeleteConfirmPage } from './DeleteConfirmPage';
import { DeleteReasonsPage, REASONS_NOT_LOADED } from './DeleteReasonsPage';
import { DeletingAccountPage } from './DeletingAccountPage';

afterEach(() => vi.unstubAllGlobals());

const REASONS = [
  { id: 'no_longer_needed', title: 'I no longer need it' },
  { id: 'privacy', title: 'Privacy concerns' },
  { id: 'other', title: 'Other' },
];

const routes = {
  'GET accounts/delete-reasons/': REASONS,
  'POST accounts/password/verify/': { password_token: 'pt-1', expires_in_seconds: 600 },
  'POST accounts/delete/': { recoverable_until: '2026-12-21T12:00:00Z' },
};

function open(entry: InitialEntry) {
  const store = makeTestStore();
  const { router } = renderAt(
    store,
    [
      { path: DELETION_PATHS.intro, element: <DeletingAccountPage /> },
      { path: DELETION_PATHS.reasons, element: <DeleteReasonsPage /> },
      { path: DELETION_PATHS.confirm, element: <DeleteConfirmPage /> },
      { path: '/dashboard/settings', element: <p>Settings screen</p> },
      { path: '/', element: <p>Start screen</p> },
    ],
    entry,
  );
  return { store, router };
}

const user = () => userEvent.setup();
const confirmWith = (reasonId: string, reasonTitle: string, details = '') => ({
  pathname: DELETION_PATHS.confirm,
  state: choiceState({ reasonId, reasonTitle, details }),
});

const errorOf = (label: string) => {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

async function deleteWith(password: string) {
  const u = user();
  await u.type(screen.getByLabelText('Password'), password);
  await u.click(screen.getByRole('button', { name: 'Delete Account' }));
}

const paths = (calls: ApiCall[]) => calls.map((c) => `${c.method} ${c.path}`);

describe('what deleting means', () => {
  it('tells about the 30 days and goes on to the reasons', async () => {
    serve(routes);
    const { router } = open(DELETION_PATHS.intro);
    expect(screen.getByText(/paused for 30 days/)).toBeInTheDocument();
    expect(screen.getByText(/After 30 days .* can no longer be recovered/)).toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('radio', { name: 'Privacy concerns' });
    expect(router.state.location.pathname).toBe(DELETION_PATHS.reasons);
  });

  it('goes back to the settings on cancel', async () => {
    serve(routes);
    const { router } = open(DELETION_PATHS.intro);
    await user().click(screen.getByRole('button', { name: 'Cancel' }));
    await screen.findByText('Settings screen');
    expect(router.state.location.pathname).toBe('/dashboard/settings');
  });
});

describe('the reasons', () => {
  it('lists the server reasons of a soft delete and continues only once one is chosen', async () => {
    const calls = serve(routes);
    const { router } = open(DELETION_PATHS.reasons);
    const radios = await screen.findAllByRole('radio');
    expect(radios.map((r) => r.getAttribute('value'))).toEqual(['no_longer_needed', 'privacy', 'other']);
    expect(calls[0]).toMatchObject({ method: 'GET', path: 'accounts/delete-reasons/' });
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
    expect(screen.queryByLabelText('Tell us why')).not.toBeInTheDocument();

    await user().click(screen.getByRole('radio', { name: 'Privacy concerns' }));
    await user().click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByText('Privacy concerns');
    expect(router.state.location.pathname).toBe(DELETION_PATHS.confirm);
    expect(router.state.location.state).toEqual(choiceState({ reasonId: 'privacy', reasonTitle: 'Privacy concerns', details: '' }));
  });

  it('asks for the soft-delete reasons', async () => {
    const urls: string[] = [];
    serve(routes);
    const fetchMock = vi.mocked(fetch);
    fetchMock.mockImplementationOnce(async (input) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return Response.json(REASONS);
    });
    open(DELETION_PATHS.reasons);
    await screen.findAllByRole('radio');
    expect(new URL(urls[0] ?? '').search).toBe('?delete_type=soft_delete');
  });

  it("needs a few words for 'Other'", async () => {
    serve(routes);
    const { router } = open(DELETION_PATHS.reasons);
    await user().click(await screen.findByRole('radio', { name: 'Other' }));
    const details = screen.getByLabelText('Tell us why');
    await user().type(details, 'no');
    await user().click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(errorOf('Tell us why')).toBe('Please tell us why.'));
    expect(router.state.location.pathname).toBe(DELETION_PATHS.reasons);
    await user().type(details, 't for me ');
    await user().click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('button', { name: 'Delete Account' });
    expect(router.state.location.state).toEqual(choiceState({ reasonId: 'other', reasonTitle: 'Other', details: 'not for me' }));
  });

  it('shows the chosen reason again after Back from the confirm screen', async () => {
    serve(routes);
    const { router } = open(DELETION_PATHS.reasons);
    await user().click(await screen.findByRole('radio', { name: 'Other' }));
    await user().type(screen.getByLabelText('Tell us why'), 'Too many apps');
    await user().click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('button', { name: 'Delete Account' });
    await router.navigate(-1);
    expect(await screen.findByRole('radio', { name: 'Other' })).toBeChecked();
    expect(screen.getByLabelText('Tell us why')).toHaveValue('Too many apps');
  });

  it('offers to try again when the reasons cannot be loaded', async () => {
    let fail = true;
    serve({ 'GET accounts/delete-reasons/': () => (fail ? answer(400, { errors: [] }) : REASONS) });
    open(DELETION_PATHS.reasons);
    expect(await screen.findByText(REASONS_NOT_LOADED)).toBeInTheDocument();
    fail = false;
    await user().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('radio', { name: 'Other' })).toBeInTheDocument();
  });
});

describe('the confirm screen', () => {
  it('goes to the reasons without a chosen one', async () => {
    serve(routes);
    const { router } = open(DELETION_PATHS.confirm);
    await screen.findByRole('radio', { name: 'Other' });
    expect(router.state.location.pathname).toBe(DELETION_PATHS.reasons);
  });

  it('keeps the choice of its history entry (a reload) and goes back to it', async () => {
    serve(routes);
    const { router } = open(confirmWith('other', 'Other', 'Too many apps'));
    expect(screen.getByText('Other')).toBeInTheDocument();
    expect(screen.getByText(/Too many apps/)).toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('radio', { name: 'Other' })).toBeChecked();
    expect(router.state.location.pathname).toBe(DELETION_PATHS.reasons);
  });

  it('needs the password', async () => {
    const calls = serve(routes);
    open(confirmWith('privacy', 'Privacy concerns'));
    await user().click(screen.getByRole('button', { name: 'Delete Account' }));
    await waitFor(() => expect(errorOf('Password')).toBe('This field is required'));
    expect(calls).toEqual([]);
  });

  it('deletes with the reason and a password token, logs the device out and shows the recoverable-until date', async () => {
    const calls = serve(routes);
    const { store, router } = open(confirmWith('privacy', 'Privacy concerns'));
    await deleteWith('Secret12#');
    await screen.findByText('Start screen');
    expect(router.state.location.pathname).toBe('/');
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ['accounts/password/verify/', { password: 'Secret12#' }],
      ['accounts/delete/', { reason_id: 'privacy', password_token: 'pt-1' }],
    ]);
    expect(store.getState().loginInfo).toMatchObject({ accessToken: null, refreshToken: null });
    expect(store.getState().snackbar).toMatchObject({
      isShown: true,
      type: 'info',
      message: 'Your account was deleted. You can recover it until Dec 21, 2026.',
    });
  });

  it("sends the details of 'Other'", async () => {
    const calls = serve(routes);
    open(confirmWith('other', 'Other', 'Too many apps'));
    await deleteWith('Secret12#');
    await screen.findByText('Start screen');
    expect(calls[1]?.body).toEqual({ reason_id: 'other', details: 'Too many apps', password_token: 'pt-1' });
  });

  it('shows a wrong password under the field and deletes nothing', async () => {
    const calls = serve({
      ...routes,
      'POST accounts/password/verify/': answer(400, {
        errors: [{ message: 'Wrong Password. Please try again', code: 'invalid', field: 'password' }],
      }),
    });
    const { store } = open(confirmWith('privacy', 'Privacy concerns'));
    await deleteWith('Wrong12#');
    await waitFor(() => expect(errorOf('Password')).toBe('Wrong Password. Please try again'));
    expect(paths(calls)).toEqual(['POST accounts/password/verify/']);
    expect(store.getState().loginInfo.accessToken).toBe('a');
  });

  it('shows a refused password token under the password field', async () => {
    serve({
      ...routes,
      'POST accounts/delete/': answer(400, {
        errors: [{ message: 'Please confirm your password again.', code: 'invalid', field: 'password_token' }],
      }),
    });
    const { store } = open(confirmWith('privacy', 'Privacy concerns'));
    await deleteWith('Secret12#');
    await waitFor(() => expect(errorOf('Password')).toBe('Please confirm your password again.'));
    expect(store.getState().loginInfo.accessToken).toBe('a');
  });

  it('shows any other refusal in the snackbar and stays signed in', async () => {
    serve({
      ...routes,
      'POST accounts/delete/': answer(400, { errors: [{ message: 'Please tell us why.', code: 'invalid', field: 'details' }] }),
    });
    const { store, router } = open(confirmWith('other', 'Other', 'abc'));
    await deleteWith('Secret12#');
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'error', message: 'Please tell us why.' }));
    expect(router.state.location.pathname).toBe(DELETION_PATHS.confirm);
    expect(store.getState().loginInfo.accessToken).toBe('a');
  });

  it('leaves a 5xx to the generic message', async () => {
    serve({ ...routes, 'POST accounts/delete/': answer(503, { errors: [{ message: 'upstream', code: 'unavailable' }] }) });
    const { store } = open(confirmWith('privacy', 'Privacy concerns'));
    await deleteWith('Secret12#');
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, message: SERVER_ERROR_MESSAGE }));
    expect(errorOf('Password')).toBeUndefined();
    expect(store.getState().loginInfo.accessToken).toBe('a');
  });

  it('goes back to the settings on cancel', async () => {
    serve(routes);
    const { router } = open(confirmWith('privacy', 'Privacy concerns'));
    await user().click(screen.getByRole('button', { name: 'Cancel' }));
    await screen.findByText('Settings screen');
    expect(router.state.location.pathname).toBe('/dashboard/settings');
  });
});
