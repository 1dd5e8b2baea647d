// The owner's share screens: /share-files (the whole folder or chosen files; expired files refused
// with spec §8's info message), /type-of-copy (spec §2 copy types, 'Generated for' with the owner's
// name, the watermark banner preview), /who-you-want-to-share (spec §5 e-mail and phone rules,
// word for word; the price from sharing-price; on to checkout).
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PHONE_DEBOUNCE_MS } from '../../../components/PhoneInput';
import { EXPIRED_MESSAGE } from '../../../lib/api/evidence';
import type { SharingDraft } from '../../../lib/sharing/draft';
import { MESSAGES as RULES } from '../../../lib/validation/rules';
import { MESSAGES } from '../model/labels';
import { type ApiCall, renderAt, serve } from '../../../testing';
import { apiFolder, apiItem, makeSharingStore } from '../testing/helpers';
import { ShareFilesPage, SOME_NOT_UPLOADED } from './ShareFilesPage';
import { PREVIEW, TypeOfCopyPage } from './TypeOfCopyPage';
import { WhoToShareWithPage } from './WhoToShareWithPage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const ROUTES = [
  { path: '/share-files/:folderId', element: <ShareFilesPage /> },
  { path: '/type-of-copy/:folderId', element: <TypeOfCopyPage /> },
  { path: '/who-you-want-to-share/:folderId', element: <WhoToShareWithPage /> },
  { path: '/checkout', element: <p>Checkout</p> },
];

const PROFILE = { id: 'u1', username: 'ann', email: 'ann@example.com', first_name: 'Ann', last_name: 'Owner' };
const PRICING = { storage: {}, sharing: { authenticated: 499, unauthenticated: 199 } };
const PRICE = (copies: number) => ({ price: 499 * copies, service_fee: 100 * copies, processing_fee: 50, wallet_saving: 10 * copies, total: 649 * copies, wallet_total: 589 * copies, currency: 'usd' });

function setup(at: string, { items = [apiItem(), apiItem({ id: 'item-2', name: 'Dent video', media_type: 'video' })], folder = apiFolder(), draft = undefined as Partial<SharingDraft> | undefined } = {}) {
  const calls = serve({
    'GET evidence/folders/folder-1/': folder,
    'GET evidence/folders/folder-1/items/': { items },
    'GET accounts/me/': PROFILE,
    'GET payments/pricing/': PRICING,
    'POST payments/sharing-price/calculate/': (call: ApiCall) => PRICE((call.body as { recipients: number }).recipients),
  });
  const store = makeSharingStore({ draft });
  const view = renderAt(store, ROUTES, at);
  return { calls, store, ...view };
}

describe('/share-files', () => {
  it('shares the whole folder by default, then goes on to the type of copy', async () => {
    const { store, router } = setup('/share-files/folder-1');
    const whole = await screen.findByRole('radio', { name: /Whole folder/ });
    expect(whole).toBeChecked();
    expect(screen.getByText('2 files')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(router.state.location.pathname).toBe('/type-of-copy/folder-1');
    expect(store.getState().sharingDraft).toMatchObject({ folderId: 'folder-1', wholeFolder: true, itemIds: [] });
  });

  it('shares chosen files only', async () => {
    const { store, router } = setup('/share-files/folder-1');
    fireEvent.click(await screen.findByRole('radio', { name: /Chosen files/ }));
    const next = screen.getByRole('button', { name: 'Continue' });
    expect(next).toBeDisabled();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Dent video' }));
    expect(next).toBeEnabled();
    fireEvent.click(next);
    expect(router.state.location.pathname).toBe('/type-of-copy/folder-1');
    expect(store.getState().sharingDraft).toMatchObject({ wholeFolder: false, itemIds: ['item-2'] });
  });

  it("refuses an expired file with 'Please extend your Storage Date for this file.', and the whole folder with it", async () => {
    const { store } = setup('/share-files/folder-1', { items: [apiItem({ expired: true }), apiItem({ id: 'item-2', name: 'Dent video' })] });
    // The whole folder cannot go: chosen files it is.
    expect(await screen.findByRole('radio', { name: /Chosen files/ })).toBeChecked();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Front bumper' }));
    expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'info', message: EXPIRED_MESSAGE });
    expect(screen.getByRole('checkbox', { name: 'Front bumper' })).not.toBeChecked();
    fireEvent.click(screen.getByRole('radio', { name: /Whole folder/ }));
    expect(screen.getByRole('radio', { name: /Whole folder/ })).not.toBeChecked();
    expect(store.getState().snackbar.message).toBe(EXPIRED_MESSAGE);
    expect(screen.getByText(/Expired/)).toBeInTheDocument();
  });

  it('an expired folder says so, with the way to extend it', async () => {
    setup('/share-files/folder-1', { folder: apiFolder({ expired: true }), items: [apiItem({ expired: true })] });
    expect(await screen.findByRole('link', { name: 'Extend Storage Date' })).toHaveAttribute('href', '/extend-storage-date/folder-1');
    expect(screen.getAllByText(EXPIRED_MESSAGE).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
  });

  it('a file not uploaded yet cannot be chosen, nor the whole folder', async () => {
    const { store } = setup('/share-files/folder-1', { items: [apiItem({ status: 'awaiting_upload', uploaded: false }), apiItem({ id: 'item-2', name: 'Dent video' })] });
    fireEvent.click(await screen.findByRole('radio', { name: /Whole folder/ }));
    expect(store.getState().snackbar.message).toBe(SOME_NOT_UPLOADED);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Front bumper' }));
    expect(store.getState().snackbar.message).toBe(MESSAGES.notUploaded);
  });

  it('says when the files could not be loaded', async () => {
    serve({ 'GET evidence/folders/folder-1/': apiFolder() });
    renderAt(makeSharingStore(), ROUTES, '/share-files/folder-1');
    expect(await screen.findByText('The files could not be loaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('/type-of-copy', () => {
  it("offers both copies, the authenticated one 'Generated for' the owner, and previews the watermark banner", async () => {
    const { store, router } = setup('/type-of-copy/folder-1', { draft: {} });
    await waitFor(() => expect(screen.getByTestId('generated-for')).toHaveTextContent('Generated for Ann Owner'));
    expect(await screen.findByTestId('price-authenticated')).toHaveTextContent('$4.99 per recipient');
    expect(screen.getByTestId('price-unauthenticated')).toHaveTextContent('$1.99 per recipient');
    const next = screen.getByRole('button', { name: 'Continue' });
    expect(next).toBeDisabled();

    fireEvent.click(screen.getByRole('radio', { name: /Authenticated Copy/ }));
    const preview = screen.getByRole('region', { name: 'Watermark preview' });
    expect(within(preview).getByText('Authenticated Copy')).toBeInTheDocument();
    expect(within(preview).getByTestId('watermark-generated-for')).toHaveTextContent('Ann Owner');
    expect(within(preview).getByTestId('watermark-sent-to')).toHaveTextContent(PREVIEW.sentTo);
    expect(within(preview).getByTestId('watermark-generated-on')).toHaveTextContent(PREVIEW.generatedOn);
    expect(within(preview).getByTestId('watermark-transaction-number')).toHaveTextContent(PREVIEW.transactionNumber);

    // An unauthenticated copy carries no 'Generated for'.
    fireEvent.click(screen.getByRole('radio', { name: /Unauthenticated Copy/ }));
    expect(within(preview).getByText('Unauthenticated Copy')).toBeInTheDocument();
    expect(within(preview).queryByText('Generated for')).not.toBeInTheDocument();
    fireEvent.click(next);
    expect(router.state.location.pathname).toBe('/who-you-want-to-share/folder-1');
    expect(store.getState().sharingDraft.copyType).toBe('unauthenticated');
  });

  it('without files chosen, starts at the first step', async () => {
    const { router } = setup('/type-of-copy/folder-1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/share-files/folder-1'));
  });
});

describe('/who-you-want-to-share', () => {
  const at = '/who-you-want-to-share/folder-1';
  const draft = { copyType: 'authenticated' as const };

  const email = () => screen.getByLabelText('Email');
  const add = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add Recipient' })));

  it('checks the e-mail with the §5 rules and messages, word for word', async () => {
    setup(at, { draft });
    await add();
    expect(await screen.findByText(RULES.required)).toBeInTheDocument();
    expect(RULES.required).toBe('This field is required');
    fireEvent.change(email(), { target: { value: 'jane@' } });
    await add();
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    fireEvent.change(email(), { target: { value: `${'a'.repeat(140)}@example.com` } });
    await add();
    expect(await screen.findByText(RULES.maxEmail)).toBeInTheDocument();
    expect(email()).toHaveAttribute('maxLength', '250');
  });

  it('adds recipients by e-mail and by phone, each once, prices them, and goes on to checkout', async () => {
    const { calls, store, router } = setup(at, { draft });
    fireEvent.change(email(), { target: { value: 'jane@example.com' } });
    await add();
    expect(await screen.findByRole('button', { name: 'Remove jane@example.com' })).toBeInTheDocument();
    expect(email()).toHaveValue('');
    await waitFor(() => expect(screen.getByTestId('share-price-card')).toHaveTextContent('$6.49'));
    expect(screen.getByTestId('share-price-wallet')).toHaveTextContent('$5.89');

    fireEvent.change(email(), { target: { value: 'JANE@example.com' } });
    await add();
    expect(await screen.findByText(MESSAGES.duplicateRecipient)).toBeInTheDocument();

    fireEvent.click(screen.getByRole('radio', { name: 'By SMS' }));
    fireEvent.change(screen.getByLabelText('Country code'), { target: { value: '+44' } });
    const number = screen.getByLabelText('Phone number');
    fireEvent.change(number, { target: { value: '7700900123' } });
    fireEvent.blur(number);
    await add();
    expect(await screen.findByRole('button', { name: 'Remove +44 7700900123' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('share-price-card')).toHaveTextContent('$12.98'));
    const prices = calls.filter((c) => c.path === 'payments/sharing-price/calculate/').map((c) => c.body);
    expect(prices).toContainEqual({ copy_type: 'authenticated', recipients: 2 });
    expect(store.getState().sharingDraft.recipients).toEqual([
      { email: 'jane@example.com' },
      { phoneNumber: { countryCode: '+44', nationalNumber: '7700900123' } },
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Remove jane@example.com' }));
    expect(store.getState().sharingDraft.recipients).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Continue to Checkout' }));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/checkout?kind=sharing&folderId=folder-1');
  });

  it('checks the phone number with the §5 rules', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setup(at, { draft });
    fireEvent.click(await screen.findByRole('radio', { name: 'By SMS' }));
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '12345' } });
    await act(async () => vi.advanceTimersByTime(PHONE_DEBOUNCE_MS));
    await add();
    expect(await screen.findByText(RULES.phoneMin)).toBeInTheDocument();
  });

  it('cannot go on without a recipient', async () => {
    setup(at, { draft });
    expect(await screen.findByText(MESSAGES.noRecipients)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue to Checkout' })).toBeDisabled();
  });

  it('without a copy type, goes back to choose one', async () => {
    const { router } = setup(at, { draft: {} });
    await waitFor(() => expect(router.state.location.pathname).toBe('/type-of-copy/folder-1'));
  });
});
