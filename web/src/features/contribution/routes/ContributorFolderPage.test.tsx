// The contributor's folder: the organization, the proven e-mail, the link's facts, each step with
// the contributor's own submissions and their state; asked again while a file is checked;
// without a token (or with a refused one) back to the verification of the same link.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeTestStore, answer, renderAt, serve } from '../../../testing';
import { CONTRIBUTION_KEY, rememberLink } from '../model/token';
import { apiDetails, apiStep, apiSubmission, FOLDER, proven, STEP, TOKEN } from '../testing/helpers';
import { ContributorFolderPage } from './ContributorFolderPage';

beforeEach(() => window.sessionStorage.clear());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function open() {
  return renderAt(
    makeTestStore({ signedIn: false }),
    [
      { path: '/organization-sharing/folder/:folderId', element: <ContributorFolderPage /> },
      { path: '/organization-sharing/verification/:folderId', element: <p>Verification screen</p> },
      { path: '/organization-sharing/evidence/:folderId/:stepId', element: <p>Contributor capture</p> },
    ],
    `/organization-sharing/folder/${FOLDER}`,
  );
}

const contents = (submissions: unknown[]) => ({
  steps: [
    { ...apiStep(), submissions },
    { ...apiStep({ id: 's-2', name: 'Damage', instructions: '' }), submissions: [] },
  ],
});

describe('the contributor folder', () => {
  it('shows the folder, the link facts and each step with its own submissions, sending the token', async () => {
    proven();
    const calls = serve({
      [`GET sharing/folder/${FOLDER}/details/`]: apiDetails(),
      [`GET sharing/folder/${FOLDER}/contents/`]: contents([
        apiSubmission(),
        apiSubmission({ id: 'e-2', name: 'Photo_b', status: 'rejected', rejection_reason: 'The file did not match its checksum.' }),
      ]),
    });
    open();
    expect(await screen.findByRole('heading', { name: 'Warehouse 7 intake' })).toBeInTheDocument();
    expect(screen.getByTestId('organization-name')).toHaveTextContent('Acme Rentals');
    expect(screen.getByText('cy@example.com')).toBeInTheDocument();
    expect(screen.getByTestId('link-facts')).toHaveTextContent('9 submissions left');
    const steps = await screen.findAllByTestId('contribution-step');
    expect(steps).toHaveLength(2);
    const first = within(steps[0]!);
    expect(first.getByText('Verified')).toBeInTheDocument();
    expect(first.getByText('Rejected')).toBeInTheDocument();
    expect(first.getByText('The file did not match its checksum.')).toBeInTheDocument();
    expect(first.getByRole('link', { name: 'Capture for Front of the parcel' })).toHaveAttribute(
      'href',
      `/organization-sharing/evidence/${FOLDER}/${STEP}`,
    );
    expect(within(steps[1]!).getByText('Nothing sent for this step yet.')).toBeInTheDocument();
    expect(calls.every((c) => c.headers.get('X-Contribution-Token') === TOKEN)).toBe(true);
    expect(calls.every((c) => !c.headers.get('authorization'))).toBe(true);
  });

  it('asks again every 5 s while a submission is being checked', async () => {
    proven();
    let asked = 0;
    serve({
      [`GET sharing/folder/${FOLDER}/details/`]: apiDetails(),
      [`GET sharing/folder/${FOLDER}/contents/`]: () => {
        asked += 1;
        return contents([apiSubmission({ status: asked < 2 ? 'uploaded' : 'verified' })]);
      },
    });
    open();
    expect(await screen.findByText('Uploaded, checking')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('Verified')).toBeInTheDocument(), { timeout: 7000 });
    const settled = asked;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(asked).toBe(settled);
  }, 10000);

  it('goes to the verification of the same link without a token', async () => {
    rememberLink(FOLDER, 'L-1');
    const calls = serve({});
    const { router } = open();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/organization-sharing/verification/${FOLDER}`));
    expect(router.state.location.search).toBe('?link=L-1');
    expect(calls).toHaveLength(0);
  });

  it('goes back to the verification when the server refuses the token', async () => {
    proven();
    rememberLink(FOLDER, 'L-1');
    const refused = answer(401, { errors: [{ message: 'Prove your e-mail again.', code: 'contribution_token_invalid' }] });
    serve({ [`GET sharing/folder/${FOLDER}/details/`]: refused, [`GET sharing/folder/${FOLDER}/contents/`]: refused });
    const { router } = open();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/organization-sharing/verification/${FOLDER}`));
    expect(router.state.location.search).toBe('?link=L-1');
    expect(window.sessionStorage.getItem(CONTRIBUTION_KEY)).toBeNull();
  });
});
