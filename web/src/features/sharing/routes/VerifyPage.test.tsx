// Public verification: a transaction number typed in any case, normalised to upper case; a file
// hashed in the browser with SHA-256, only the hash posted (never the file's bytes); what was
// issued; the service's messages for an unknown number or file and for too many checks (429).
import { File as NodeFile } from 'node:buffer';
import { createHash } from 'node:crypto';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../model/labels';
import { answer, type ApiCall, renderAt, serve } from '../../../testing';
import { signedReceipt } from '../../../lib/receipts/testing';
import { apiVerification, makeSharingStore } from '../testing/helpers';
import { NOT_ISSUED_FILE, NOT_ISSUED_NUMBER, VerifyPage } from './VerifyPage';

afterEach(() => vi.unstubAllGlobals());

function setup(routes: Record<string, unknown>, at = '/verify') {
  const calls = serve(routes);
  const store = makeSharingStore({ signedIn: false });
  const view = renderAt(
    store,
    [
      { path: '/verify', element: <VerifyPage /> },
      { path: '/verify/:transactionNumber', element: <VerifyPage /> },
    ],
    at,
  );
  return { calls, store, ...view };
}

const typeNumber = (value: string) => fireEvent.change(screen.getByLabelText('Transaction Number'), { target: { value } });
const verify = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Verify' })));

describe('/verify by transaction number', () => {
  it('takes the number in any case, in upper case, and shows what was issued under it', async () => {
    const { calls, router } = setup({ 'GET sharing/verify/EVD-7K3Q-9XTM/': apiVerification() });
    typeNumber('evd-7k3q-9xtm');
    expect(screen.getByLabelText('Transaction Number')).toHaveValue('EVD-7K3Q-9XTM');
    await verify();
    await waitFor(() => expect(router.state.location.pathname).toBe('/verify/EVD-7K3Q-9XTM'));
    const result = await screen.findByTestId('verification');
    expect(screen.getByTestId('verified-transaction-number')).toHaveTextContent('EVD-7K3Q-9XTM');
    expect(screen.getByTestId('verified-generated-for')).toHaveTextContent('Ann Owner');
    expect(result).toHaveTextContent('Authenticated Copy');
    expect(result).toHaveTextContent('j***@example.com');
    expect(result).toHaveTextContent('a'.repeat(64));
    expect(result).toHaveTextContent('c'.repeat(64));
    expect(result).toHaveTextContent('Berlin · Berlin, BE, DE · 52.520000, 13.405000');
    expect(result).toHaveTextContent('Received by server');
    expect(screen.queryByTestId('byte-identical')).not.toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET sharing/verify/EVD-7K3Q-9XTM/']);
  });

  it("checks each original's signed receipt against the published keys, without an account", async () => {
    const { receipt, key } = await signedReceipt('{"item_id":"item-1","key_id":"k1"}');
    const verification = apiVerification();
    verification.items[0] = { ...verification.items[0], receipt } as (typeof verification.items)[0];
    const { calls } = setup({ 'GET sharing/verify/EVD-7K3Q-9XTM/': verification, 'GET .well-known/receipt-keys': { keys: [key] } }, '/verify/EVD-7K3Q-9XTM');
    await waitFor(() => expect(screen.getByTestId('receipt-check')).toHaveTextContent('Signed receipt: signature valid (key k1)'));
    expect(screen.getAllByTestId('receipt-check')).toHaveLength(1);
    expect(calls.find((c) => c.path === '.well-known/receipt-keys')?.headers.get('authorization')).toBeNull();
  });

  it('reads a lower-case number in the address', async () => {
    const { calls } = setup({ 'GET sharing/verify/EVD-7K3Q-9XTM/': apiVerification({ revoked: true }) }, '/verify/evd-7k3q-9xtm');
    expect(await screen.findByTestId('verification-revoked')).toHaveTextContent('The owner has revoked this copy.');
    expect(calls[0]?.path).toBe('sharing/verify/EVD-7K3Q-9XTM/');
  });

  it('asks for a number, and one of the right form, before asking the service', async () => {
    const { calls } = setup({});
    await verify();
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    typeNumber('EVD-2026-000042');
    await verify();
    expect(await screen.findByText(MESSAGES.transactionNumberFormat)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("an unknown number shows the service's message", async () => {
    setup({ 'GET sharing/verify/EVD-0000-0000/': answer(404, { errors: [{ message: NOT_ISSUED_NUMBER, code: 'not_found' }] }) }, '/verify/EVD-0000-0000');
    expect(await screen.findByRole('alert')).toHaveTextContent('No copy was issued with this transaction number.');
  });

  it('too many checks (429) show the service message', async () => {
    setup({ 'GET sharing/verify/EVD-7K3Q-9XTM/': answer(429, { errors: [{ message: 'Too many checks. Try again in a minute.', code: 'rate_limited' }] }) }, '/verify/EVD-7K3Q-9XTM');
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many checks. Try again in a minute.');
  });
});

describe('/verify by file', () => {
  const bytes = new TextEncoder().encode('the bytes of a copy we issued, watermark and all');
  const expected = createHash('sha256').update(bytes).digest('hex');
  // Node's File, as browsers', reads its bytes with arrayBuffer(); jsdom's does not.
  const file = () => new NodeFile([bytes], 'copy.jpg', { type: 'image/jpeg' }) as unknown as File;

  it('hashes a chosen file in the browser and posts only its SHA-256; a copy we issued is recognised byte for byte', async () => {
    const { calls } = setup({ 'POST sharing/verify/file/': apiVerification({ matched_item_index: 1 }) });
    await act(async () => fireEvent.change(screen.getByLabelText('Choose a file to verify'), { target: { files: [file()] } }));
    expect(await screen.findByTestId('byte-identical')).toHaveTextContent('This file is byte-identical to a copy we issued. It is the copy of Dent video.');
    const [call] = calls as [ApiCall];
    expect(calls).toHaveLength(1);
    expect(call.method).toBe('POST');
    expect(call.path).toBe('sharing/verify/file/');
    // Only the hash left the device: the body is {sha256} and carries none of the file's bytes.
    expect(call.body).toEqual({ sha256: expected });
    expect(call.text).toBe(JSON.stringify({ sha256: expected }));
    expect(call.text).not.toContain('the bytes of a copy');
    expect(call.headers.get('content-type')).toBe('application/json');
  });

  it('takes a dropped file too', async () => {
    const { calls } = setup({ 'POST sharing/verify/file/': apiVerification({ matched_item_index: 0 }) });
    await act(async () => fireEvent.drop(screen.getByTestId('verify-drop'), { dataTransfer: { files: [file()] } }));
    expect(await screen.findByTestId('byte-identical')).toHaveTextContent('It is the copy of Front bumper.');
    expect(calls[0]?.body).toEqual({ sha256: expected });
  });

  it("a file we did not issue shows the service's message", async () => {
    setup({ 'POST sharing/verify/file/': answer(404, { errors: [{ message: NOT_ISSUED_FILE, code: 'not_found' }] }) });
    await act(async () => fireEvent.change(screen.getByLabelText('Choose a file to verify'), { target: { files: [file()] } }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This file is not a copy we issued.');
  });

  it('too many checks (429) show the service message', async () => {
    setup({ 'POST sharing/verify/file/': answer(429, { errors: [{ message: 'Too many checks. Try again in a minute.', code: 'rate_limited' }] }) });
    await act(async () => fireEvent.change(screen.getByLabelText('Choose a file to verify'), { target: { files: [file()] } }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many checks. Try again in a minute.');
  });
});
