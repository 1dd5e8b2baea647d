// The success pages after a payment: the new storage date is the purchase's (never the folder's
// date read before paying), a purchase that cannot be read says so with Try Again, and a page
// opened without its purchase goes on instead of speaking of a payment.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve } from '../../../testing';
import { ExtendStorageSuccessPage, PaymentSuccessPage } from './SuccessPages';

afterEach(() => vi.unstubAllGlobals());

const FOLDER = { id: 'f1', name: 'Car rental', file_count: 1, used_bytes: 10, expired: false, expire_soon: false, expiration_date: '2027-11-29T00:00:00Z' };
const TRANSACTION = {
  id: 'tx1',
  transaction_number: 'EVD-2026-000001',
  kind: 'storage_extension',
  description: 'Storage extension by 1 month',
  folder_id: 'f1',
  months: 1,
  price: 100,
  service_fee: 20,
  processing_fee: 0,
  wallet_saving: 2,
  total: 118,
  paid_from_wallet: 118,
  charged_to_card: 0,
  storage_expires_at: '2027-12-29T00:00:00Z',
  created_at: '2026-11-29T10:00:00Z',
};

function open(path: string) {
  return renderAt(
    makeTestStore(),
    [
      { path: '/extend-storage-success', element: <ExtendStorageSuccessPage /> },
      { path: '/payment-success', element: <PaymentSuccessPage /> },
      { path: '/dashboard/my-files', element: <p>My Files screen</p> },
      { path: '/dashboard/home', element: <p>Home screen</p> },
    ],
    path,
  );
}

describe('success pages', () => {
  it('gives the purchase’s new date, and says so when the purchase cannot be read, with Try Again', async () => {
    let n = 0;
    serve({
      'GET evidence/folders/f1/': FOLDER,
      'GET payments/transactions/tx1/': () => (++n === 1 ? answer(503, { errors: [{ message: 'down' }] }) : TRANSACTION),
    });
    open('/extend-storage-success?transactionId=tx1&folderId=f1');
    expect(await screen.findByText('The payment went through. Its details could not be loaded.')).toBeInTheDocument();
    // The folder's date (read before the payment could land) is never given as the new one.
    expect(screen.queryByText('Nov 29, 2027')).not.toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try Again' })));
    await waitFor(() => expect(screen.getByTestId('extended-storage-date')).toHaveTextContent('Dec 29, 2027'));
  });

  it('go on to My Files and Home when opened without a purchase', async () => {
    serve({});
    open('/extend-storage-success');
    expect(await screen.findByText('My Files screen')).toBeInTheDocument();
    open('/payment-success');
    expect(await screen.findByText('Home screen')).toBeInTheDocument();
  });
});
