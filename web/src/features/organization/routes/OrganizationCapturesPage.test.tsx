// The organization captures tab: an organization's name, its templates and participants links and
// its folders (steps complete, pending contributions, storage date), or the empty state; an
// account outside any organization is told what the tab is for and reaches the organization
// sign-up logged out.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, type ApiCall, makeTestStore, noContent, renderAt, serve } from '../../../testing';
import { NO_FOLDERS, NOT_AN_ORGANIZATION } from '../model/messages';
import { apiFolderSummary, apiOrganization } from '../testing/helpers';
import { OrganizationCapturesPage } from './OrganizationCapturesPage';

afterEach(() => vi.unstubAllGlobals());

function open() {
  const store = makeTestStore();
  const view = renderAt(
    store,
    [
      { path: '/dashboard/organization-captures', element: <OrganizationCapturesPage /> },
      { path: '/organization-participants', element: <p>Participants screen</p> },
      { path: '/organization-capture-templates/:viewMode', element: <p>Templates screen</p> },
      { path: '/organization-folder/:folderId', element: <p>Organization folder screen</p> },
      { path: '/sign-up-organization', element: <p>Organization sign-up screen</p> },
      { path: '/', element: <p>Start screen</p> },
      { path: '/dashboard/home', element: <p>Home screen</p> },
    ],
    '/dashboard/organization-captures',
    { guarded: true },
  );
  return { ...view, store };
}

// The profile (read by most screens, and here to know an account outside any organization) aside.
const routes = (calls: ApiCall[]) => calls.map((c) => `${c.method} ${c.path}`).filter((r) => r !== 'GET accounts/me/');
const NOT_MEMBER = answer(404, { errors: [{ message: 'You are not in an organization.', code: 'not_found' }] });

describe('an organization', () => {
  it('shows its name, the ways to its templates and participants, and the empty state', async () => {
    const calls = serve({ 'GET accounts/organization/': apiOrganization('admin'), 'GET organizations/folders/': { folders: [] } });
    const { router } = open();
    expect(await screen.findByTestId('organization-name')).toHaveTextContent('Acme Rentals');
    expect(screen.getByText('Your role: Admin')).toBeInTheDocument();
    expect(await screen.findByText(NO_FOLDERS)).toBeInTheDocument();
    expect(screen.queryByText(NOT_AN_ORGANIZATION)).toBeNull();
    expect(routes(calls)).toEqual(['GET accounts/organization/', 'GET organizations/folders/']);
    expect(screen.getByRole('link', { name: 'Capture Templates' })).toHaveAttribute('href', '/organization-capture-templates/list');
    await userEvent.setup().click(screen.getByRole('link', { name: 'Participants' }));
    expect(router.state.location.pathname).toBe('/organization-participants');
  });

  it('lists its folders with steps complete, pending contributions and the storage date', async () => {
    serve({
      'GET accounts/organization/': apiOrganization('member'),
      'GET organizations/folders/': {
        folders: [
          apiFolderSummary(),
          apiFolderSummary({ id: 'of-2', name: 'Old intake', expired: true, pending_count: 0, steps_complete: 2 }),
        ],
      },
    });
    const { router } = open();
    const rows = await screen.findAllByTestId('organization-folder');
    expect(rows).toHaveLength(2);
    const first = within(rows[0]!);
    expect(first.getByText('Warehouse 7 intake')).toBeInTheDocument();
    expect(first.getByText('Parcel intake')).toBeInTheDocument();
    expect(first.getByText('1 of 2 steps complete')).toBeInTheDocument();
    expect(first.getByText('3 pending')).toBeInTheDocument();
    expect(first.getByText(/Storage date Nov 21, 2027/)).toBeInTheDocument();
    const second = within(rows[1]!);
    expect(second.getByText('Expired')).toBeInTheDocument();
    expect(second.queryByText(/pending/)).toBeNull();
    await userEvent.setup().click(first.getByRole('link'));
    expect(router.state.location.pathname).toBe('/organization-folder/of-1');
  });

  it('shows a failed folder list with a way to try again', async () => {
    let attempts = 0;
    serve({
      'GET accounts/organization/': apiOrganization('owner'),
      'GET organizations/folders/': () =>
        ++attempts === 1 ? answer(403, { errors: [{ message: 'Not allowed.', code: 'forbidden' }] }) : { folders: [apiFolderSummary()] },
    });
    open();
    expect(await screen.findByText('Not allowed.')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByTestId('organization-folder')).toBeInTheDocument();
  });

  it('shows another failure with a way to try again', async () => {
    let attempts = 0;
    serve({
      'GET accounts/organization/': () =>
        ++attempts === 1 ? answer(403, { errors: [{ message: 'Please log in again.', code: 'forbidden' }] }) : apiOrganization('member'),
    });
    open();
    expect(await screen.findByText('Please log in again.')).toBeInTheDocument();
    expect(screen.queryByText(NOT_AN_ORGANIZATION)).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByTestId('organization-name')).toHaveTextContent('Acme Rentals');
  });
});

describe('an account outside any organization', () => {
  it('is told the tab is for organization accounts, with no empty list', async () => {
    serve({ 'GET accounts/organization/': NOT_MEMBER });
    open();
    expect(await screen.findByRole('heading', { name: NOT_AN_ORGANIZATION })).toBeInTheDocument();
    expect(screen.queryByText(NO_FOLDERS)).toBeNull();
    expect(screen.queryByRole('link', { name: 'Participants' })).toBeNull();
  });

  it('asks before logging out, then ends the session and opens the organization sign-up', async () => {
    const calls = serve({ 'GET accounts/organization/': NOT_MEMBER, 'POST accounts/logout/': noContent() });
    const { store, router } = open();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign Up as an Organization' }));
    const dialog = screen.getByRole('dialog', { name: 'Log Out to Sign Up?' });
    expect(store.getState().loginInfo.accessToken).toBe('a');
    await user.click(within(dialog).getByRole('button', { name: 'Log Out and Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-up-organization'));
    expect(screen.getByText('Organization sign-up screen')).toBeInTheDocument();
    expect(store.getState().loginInfo.accessToken).toBeNull();
    expect(calls.find((c) => c.path === 'accounts/logout/')?.body).toEqual({ refresh: 'r' });
  });

  it('Cancel stays signed in', async () => {
    const calls = serve({ 'GET accounts/organization/': NOT_MEMBER });
    const { store, router } = open();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign Up as an Organization' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(store.getState().loginInfo.accessToken).toBe('a');
    expect(router.state.location.pathname).toBe('/dashboard/organization-captures');
    expect(routes(calls)).toEqual(['GET accounts/organization/']);
  });
});
