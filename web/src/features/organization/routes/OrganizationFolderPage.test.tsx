// An organization folder: its steps with their files, counts and completeness; a pending
// contribution accepted, or declined after a confirmation; contribution links made (spec §5
// e-mail rule, days 1-30 and submissions 1-100 with their defaults) and revoked after a confirmation.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve, type ApiCall } from '../../../testing';
import { MESSAGES } from '../../../lib/validation/rules';
import { DAYS_MESSAGE } from '../validation/contributionLink';
import { apiFolderSummary, apiItem, apiLink, apiTemplateStep } from '../testing/helpers';
import { OrganizationFolderPage } from './OrganizationFolderPage';

afterEach(() => vi.unstubAllGlobals());

const apiFolder = (pending = true) => ({
  ...apiFolderSummary(),
  steps: [
    {
      ...apiTemplateStep(),
      // The participant's own verified photo counts; the pending contribution not yet.
      file_count: pending ? 1 : 2,
      complete: true,
      items: [
        apiItem(),
        apiItem({
          id: 'i-2',
          name: 'Photo_from_cy',
          review_state: pending ? 'pending' : 'accepted',
          contributor_email: 'cy@example.com',
          status: 'verified',
        }),
      ],
    },
    {
      ...apiTemplateStep({ id: 'st-2', name: 'Damage', instructions: '', min_files: 0, max_files: 5 }),
      file_count: 0,
      complete: false,
      items: [],
    },
  ],
});

function open() {
  const store = makeTestStore();
  return renderAt(
    store,
    [
      { path: '/organization-folder/:folderId', element: <OrganizationFolderPage /> },
      { path: '/organization-evidence/:folderId/:stepId', element: <p>Organization capture</p> },
    ],
    '/organization-folder/of-1',
  );
}

const posts = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST').map((c) => ({ path: c.path, body: c.body }));

describe('the folder and its steps', () => {
  it('shows each step with its files, counts, completeness and the way to capture into it', async () => {
    serve({ 'GET organizations/folders/of-1/': apiFolder(), 'GET sharing/contribution-links/': { links: [] } });
    open();
    expect(await screen.findByRole('heading', { name: 'Warehouse 7 intake' })).toBeInTheDocument();
    expect(screen.getByText(/Parcel intake · Storage date Nov 21, 2027/)).toBeInTheDocument();
    const [first, second] = screen.getAllByTestId('folder-step');
    expect(within(first!).getByText('Complete')).toBeInTheDocument();
    expect(within(first!).getByText('1 of 3 files · at least 1 · 1 waiting for review')).toBeInTheDocument();
    expect(within(first!).getByText('Pending')).toBeInTheDocument();
    expect(within(first!).getByText('From cy@example.com')).toBeInTheDocument();
    expect(within(second!).getByText('Incomplete')).toBeInTheDocument();
    expect(within(second!).getByText('0 of 5 files')).toBeInTheDocument();
    expect(within(second!).getByRole('link', { name: 'Capture for Damage' })).toHaveAttribute('href', '/organization-evidence/of-1/st-2');
    expect(await screen.findByText('No contribution links yet.')).toBeInTheDocument();
  });

  it('accepts a pending contribution', async () => {
    let reviewed = false;
    const calls = serve({
      'GET organizations/folders/of-1/': () => apiFolder(!reviewed),
      'GET sharing/contribution-links/': { links: [] },
      'POST organizations/items/i-2/review/': () => {
        reviewed = true;
        return apiItem({ id: 'i-2', review_state: 'accepted' });
      },
    });
    open();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Accept Photo_from_cy' }));
    expect(await screen.findByText('Accepted')).toBeInTheDocument();
    expect(posts(calls)).toEqual([{ path: 'organizations/items/i-2/review/', body: { decision: 'accepted' } }]);
  });

  it('declines a pending contribution only after a confirmation', async () => {
    const calls = serve({
      'GET organizations/folders/of-1/': apiFolder(),
      'GET sharing/contribution-links/': { links: [] },
      'POST organizations/items/i-2/review/': apiItem({ id: 'i-2', review_state: 'declined' }),
    });
    open();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Decline Photo_from_cy' }));
    const dialog = screen.getByRole('dialog', { name: 'Decline Contribution?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(posts(calls)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Decline Photo_from_cy' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(posts(calls)).toEqual([{ path: 'organizations/items/i-2/review/', body: { decision: 'declined' } }]));
  });

  it('shows a failed folder with a way to try again', async () => {
    let attempts = 0;
    serve({
      'GET organizations/folders/of-1/': () => (++attempts === 1 ? answer(503, { errors: [{ message: 'Unavailable.' }] }) : apiFolder()),
      'GET sharing/contribution-links/': { links: [] },
    });
    open();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Try Again' }));
    expect(await screen.findAllByTestId('folder-step')).toHaveLength(2);
  });

  it('offers no Try Again for a folder that is not there, which would only say so again', async () => {
    serve({
      'GET organizations/folders/of-1/': answer(404, { errors: [{ message: 'Folder not found.', code: 'not_found' }] }),
      'GET sharing/contribution-links/': { links: [] },
    });
    open();
    expect(await screen.findByText('Folder not found.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Organization/ })).toBeInTheDocument();
  });
});

describe('contribution links', () => {
  it('makes a link by e-mail with the default days and submissions, after the rules', async () => {
    let made = false;
    const calls = serve({
      'GET organizations/folders/of-1/': apiFolder(),
      'GET sharing/contribution-links/': () => ({ links: made ? [apiLink()] : [] }),
      'POST sharing/contribution-links/create/': () => {
        made = true;
        return answer(201, apiLink());
      },
    });
    open();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New Contribution Link' }));
    const dialog = screen.getByRole('dialog', { name: 'New Contribution Link' });
    expect(within(dialog).getByLabelText('Expires in (days)')).toHaveValue('7');
    expect(within(dialog).getByLabelText('Files it can send')).toHaveValue('10');
    await user.type(within(dialog).getByLabelText('Email'), 'cy@');
    await user.clear(within(dialog).getByLabelText('Expires in (days)'));
    await user.type(within(dialog).getByLabelText('Expires in (days)'), '31');
    await user.click(within(dialog).getByRole('button', { name: 'Send Link' }));
    expect(await within(dialog).findByText(MESSAGES.email)).toBeInTheDocument();
    expect(within(dialog).getByText(DAYS_MESSAGE)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Email'), 'example.com');
    await user.clear(within(dialog).getByLabelText('Expires in (days)'));
    await user.type(within(dialog).getByLabelText('Expires in (days)'), '7');
    await user.click(within(dialog).getByRole('button', { name: 'Send Link' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(calls)).toEqual([
      { path: 'sharing/contribution-links/create/', body: { folder_id: 'of-1', email: 'cy@example.com', expires_in_days: 7, max_submissions: 10 } },
    ]);
    const link = await screen.findByTestId('contribution-link');
    expect(within(link).getByText('Active')).toBeInTheDocument();
    expect(within(link).getByText(/2 of 10 submissions used/)).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'sharing/contribution-links/')?.search).toBe('?folder_id=of-1');
  });

  it('revokes a link after a confirmation, and shows the other states without controls', async () => {
    let revoked = false;
    const calls = serve({
      'GET organizations/folders/of-1/': apiFolder(),
      'GET sharing/contribution-links/': () => ({
        links: [apiLink({ state: revoked ? 'revoked' : 'active' }), apiLink({ id: 'l-2', sent_to: '+1 5551234567', channel: 'sms', state: 'used_up', submissions: 10 })],
      }),
      'POST sharing/contribution-links/l-1/revoke/': () => {
        revoked = true;
        return apiLink({ state: 'revoked' });
      },
    });
    open();
    const user = userEvent.setup();
    const [, usedUp] = await screen.findAllByTestId('contribution-link');
    expect(within(usedUp!).getByText('Used up')).toBeInTheDocument();
    expect(within(usedUp!).queryByRole('button')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Revoke the link to cy@example.com' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Revoke Link?' })).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.getAllByTestId('contribution-link')[0]).toHaveAttribute('data-state', 'revoked'));
    expect(posts(calls)).toEqual([{ path: 'sharing/contribution-links/l-1/revoke/', body: undefined }]);
  });

  it('copies the link url', async () => {
    serve({ 'GET organizations/folders/of-1/': apiFolder(), 'GET sharing/contribution-links/': { links: [apiLink()] } });
    open();
    // user-event puts a clipboard of its own on the navigator.
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Copy the link to cy@example.com' }));
    expect(await navigator.clipboard.readText()).toBe(apiLink().url);
  });
});
