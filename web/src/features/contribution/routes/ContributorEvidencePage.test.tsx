// The contributor's capture of one step: the step's words, the modes its media types allow, and a
// file whose finish failed shown as Rejected (spec §4) with a Retry that runs create (the same
// client_id), the upload and finish again.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, instantSender, makeTestStore, renderAt, serve, type ApiCall } from '../../../testing';
import { apiDetails, apiStep, apiSubmission, FOLDER, proven, STEP, TOKEN } from '../testing/helpers';
import { ContributorEvidencePage } from './ContributorEvidencePage';
import { reloadHeld } from '../../../lib/network/reloadHold';

vi.mock('../../../lib/upload/transport', async (actual) => ({
  ...(await actual<typeof import('../../../lib/upload/transport')>()),
  xhrSender: (await import('../../../testing/device')).instantSender,
}));
vi.mock('../../../lib/hash/sha256', () => ({ sha256Hex: async () => 'b'.repeat(64) }));
vi.mock('../../../components/capture/Recorder', async () => ({ Recorder: (await import('../../../testing/device')).FakeRecorder }));

beforeEach(() => {
  window.sessionStorage.clear();
  instantSender.posts.length = 0;
});
afterEach(() => vi.unstubAllGlobals());

function open() {
  return renderAt(
    makeTestStore({ signedIn: false }),
    [
      { path: '/organization-sharing/evidence/:folderId/:stepId', element: <ContributorEvidencePage /> },
      { path: '/organization-sharing/folder/:folderId', element: <p>Contributor folder</p> },
      { path: '/organization-sharing/verification/:folderId', element: <p>Verification screen</p> },
    ],
    `/organization-sharing/evidence/${FOLDER}/${STEP}`,
  );
}

const routes = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST').map((c) => c.path);

describe('capture for a step', () => {
  it('offers no more capture once the contributor has sent as many files as the step takes', async () => {
    proven();
    serve({
      [`GET sharing/evidence/${FOLDER}/${STEP}/`]: {
        step: apiStep({ max_files: 1 }),
        submissions: [apiSubmission()],
      },
    });
    open();
    expect(await screen.findByText('This step has all the files it takes. Thank you.')).toBeInTheDocument();
    expect(screen.queryByTestId('camera')).not.toBeInTheDocument();
  });

  it('renames a file sent earlier with the contribution token, and shows a refusal in the dialog', async () => {
    proven();
    let name = 'Photo_20261121_090512';
    const calls = serve({
      [`GET sharing/evidence/${FOLDER}/${STEP}/`]: () => ({ step: apiStep(), submissions: [apiSubmission({ name })] }),
      'PUT sharing/anonymous/proofs/e-1/update/': (call: ApiCall) => {
        const wanted = (call.body as { name: string }).name;
        if (wanted === 'Reviewed') {
          return answer(400, { errors: [{ message: 'This file was already reviewed and can no longer be changed.', code: 'wrong_state' }] });
        }
        name = wanted;
        return apiSubmission({ name });
      },
    });
    open();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rename Photo_20261121_090512' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename file' });
    const field = within(dialog).getByLabelText('Name');
    await user.clear(field);
    await user.type(field, 'Reviewed');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This file was already reviewed and can no longer be changed.')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'Front door');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Rename file' })).not.toBeInTheDocument());
    expect(await screen.findByText('Front door')).toBeInTheDocument();
    const renamed = calls.filter((c) => c.method === 'PUT');
    expect(renamed.map((c) => c.body)).toEqual([{ name: 'Reviewed' }, { name: 'Front door' }]);
    expect(renamed[1]?.headers.get('X-Contribution-Token')).toBe(TOKEN);
  });

  it('offers no capture when the link has no submissions left, even for a step opened by its address', async () => {
    proven();
    serve({
      [`GET sharing/evidence/${FOLDER}/${STEP}/`]: { step: apiStep(), submissions: [] },
      [`GET sharing/folder/${FOLDER}/details/`]: apiDetails({ submissions_left: 0 }),
    });
    open();
    expect(await screen.findByText('This link has reached its number of submissions.')).toBeInTheDocument();
    expect(screen.queryByTestId('camera')).not.toBeInTheDocument();
    expect(screen.queryByText('Choose a File')).not.toBeInTheDocument();
  });

  it('still offers capture when the only file sent was rejected', async () => {
    proven();
    serve({
      [`GET sharing/evidence/${FOLDER}/${STEP}/`]: {
        step: apiStep({ max_files: 1 }),
        submissions: [apiSubmission({ status: 'rejected', rejection_reason: 'The upload was not finished in time.' })],
      },
    });
    open();
    expect(await screen.findByTestId('camera')).toBeInTheDocument();
    expect(screen.queryByText('This step has all the files it takes. Thank you.')).not.toBeInTheDocument();
  });

  it("shows the step's words and only the modes its media types allow", async () => {
    proven();
    serve({ [`GET sharing/evidence/${FOLDER}/${STEP}/`]: { step: apiStep({ media_types: ['audio', 'image'] }), submissions: [apiSubmission()] } });
    open();
    expect(await screen.findByRole('heading', { name: 'Front of the parcel' })).toBeInTheDocument();
    expect(screen.getByText('Show the label.')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Audio', 'Photo']);
    expect(screen.getByTestId('camera')).toHaveAttribute('data-mode', 'audio');
    expect(within(screen.getByRole('region', { name: 'Sent before' })).getByText('Verified')).toBeInTheDocument();
  });

  it('tells a file whose sending lost the connection to wait on this page, and holds back the reload', async () => {
    proven();
    serve({
      [`GET sharing/evidence/${FOLDER}/${STEP}/`]: { step: apiStep(), submissions: [] },
      [`POST sharing/anonymous/proofs/${FOLDER}/${STEP}/create/`]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    open();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Take Photo' }));
    const row = await screen.findByTestId('contribution-row');
    await waitFor(() => expect(row).toHaveAttribute('data-status', 'rejected'));
    expect(within(row).getByText('The connection was lost. Keep this page open and press Retry once you are back online.')).toBeInTheDocument();
    expect(reloadHeld()).toBe(true);
  });

  it('marks a file whose finish failed as Rejected, and Retry sends it again with the same client_id', async () => {
    proven();
    let finishes = 0;
    const calls = serve({
      [`GET sharing/evidence/${FOLDER}/${STEP}/`]: { step: apiStep(), submissions: [] },
      [`POST sharing/anonymous/proofs/${FOLDER}/${STEP}/create/`]: (call: ApiCall) => ({
        evidence: apiSubmission({ id: 'e-9', status: 'awaiting_upload', name: (call.body as { name: string }).name }),
        upload: 'single',
      }),
      'POST sharing/anonymous/proofs/proofs/e-9/single-upload-url/create/': { presigned_upload_url: { url: 'https://s3.test/bucket', fields: { key: 'k' } } },
      'POST sharing/anonymous/proofs/e-9/multipart-upload/finish/': () => {
        finishes += 1;
        return finishes === 1
          ? answer(400, { errors: [{ message: 'The file did not arrive.', code: 'invalid' }] })
          : apiSubmission({ id: 'e-9', status: 'uploaded' });
      },
    });
    open();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Take Photo' }));
    const row = await screen.findByTestId('contribution-row');
    await waitFor(() => expect(row).toHaveAttribute('data-status', 'rejected'));
    expect(within(row).getByText('Rejected')).toBeInTheDocument();
    expect(within(row).getByText('The file did not arrive.')).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(row).toHaveAttribute('data-status', 'sent'));
    expect(within(row).getByText('Uploaded, checking')).toBeInTheDocument();

    const creates = calls.filter((c) => c.path.endsWith('/create/') && c.path.startsWith('sharing/anonymous/proofs/f-1'));
    expect(creates).toHaveLength(2);
    const ids = creates.map((c) => (c.body as { client_id: string }).client_id);
    expect(ids[0]).toBe(ids[1]);
    expect(creates[0]?.body).toMatchObject({ media_type: 'image', mime_type: 'image/jpeg', file_size: 10, sha256: 'b'.repeat(64) });
    expect(routes(calls)).toEqual([
      `sharing/anonymous/proofs/${FOLDER}/${STEP}/create/`,
      'sharing/anonymous/proofs/proofs/e-9/single-upload-url/create/',
      'sharing/anonymous/proofs/e-9/multipart-upload/finish/',
      `sharing/anonymous/proofs/${FOLDER}/${STEP}/create/`,
      'sharing/anonymous/proofs/proofs/e-9/single-upload-url/create/',
      'sharing/anonymous/proofs/e-9/multipart-upload/finish/',
    ]);
    expect(instantSender.posts).toEqual(['https://s3.test/bucket', 'https://s3.test/bucket']);
    expect(calls.every((c) => c.headers.get('X-Contribution-Token') === TOKEN)).toBe(true);
  });
});
