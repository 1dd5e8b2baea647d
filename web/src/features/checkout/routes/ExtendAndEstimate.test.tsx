// The storage extension screen (current and new storage date 'MMM D, YYYY', the breakdown, on to
// checkout) and the cost estimator (size and months -> storage-price-prolong/calculate).
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve, type ApiCall } from '../../../testing';
import { ExtendStorageDatePage } from './ExtendStorageDatePage';
import { CostEstimatorPage, sizeError } from './PricesPages';

afterEach(() => vi.unstubAllGlobals());

const PRICING = {
  storage: { month_price: 199, included_gb: 1, extra_gb_month_price: 99, months_options: [1, 3, 6, 12] },
  sharing: { authenticated: 499, unauthenticated: 199 },
  service_fee_percent: 20,
  wallet_service_fee_saving_percent: 10,
  card_processing_percent: 2.9,
  card_processing_fixed: 30,
  first_authorisation: 50,
  auto_top_up_threshold: 500,
  top_up_min: 1000,
  top_up_max: 10000,
  top_up_presets: [1000, 2500, 5000],
};

const price = (call: ApiCall) => {
  const { months } = call.body as { months: number };
  return {
    price: 199 * months,
    service_fee: 40 * months,
    processing_fee: 37,
    wallet_saving: 4 * months,
    total: 239 * months + 37,
    wallet_total: 235 * months,
    currency: 'usd',
    current_storage_date: '2026-12-01T12:00:00Z',
    new_storage_date: months === 3 ? '2027-03-01T12:00:00Z' : '2027-01-01T12:00:00Z',
  };
};

describe('extend storage date', () => {
  it('shows the current and new storage date for the chosen months, then goes to checkout', async () => {
    const calls = serve({
      'GET evidence/folders/f1/': { id: 'f1', name: 'Car rental', file_count: 1, used_bytes: 10, expired: false, expire_soon: true, expiration_date: '2026-12-01T12:00:00Z' },
      'GET payments/pricing/': PRICING,
      'POST payments/storage-price-prolong/calculate/': price,
    });
    const { router } = renderAt(
      makeTestStore(),
      [
        { path: '/extend-storage-date/:folderId', element: <ExtendStorageDatePage /> },
        { path: '/checkout', element: <p>Checkout</p> },
      ],
      '/extend-storage-date/f1',
    );
    fireEvent.click(await screen.findByRole('button', { name: '3 months' }));
    await waitFor(() => expect(screen.getByTestId('new-storage-date')).toHaveTextContent('Mar 1, 2027'));
    expect(screen.getByTestId('current-storage-date')).toHaveTextContent('Dec 1, 2026');
    expect(screen.getByTestId('wallet-total')).toHaveTextContent('$7.05');
    expect(screen.getByTestId('card-total')).toHaveTextContent('$7.54');
    expect(calls.filter((c) => c.path === 'payments/storage-price-prolong/calculate/').at(-1)?.body).toEqual({ folder_id: 'f1', months: 3 });
    fireEvent.click(screen.getByRole('button', { name: 'Continue to Checkout' }));
    expect(router.state.location.pathname + router.state.location.search).toBe('/checkout?kind=storage_extension&folderId=f1&months=3');
  });

  it("never shows one choice's figures beside another: a failed price leaves nothing to continue with", async () => {
    serve({
      'GET evidence/folders/f1/': { id: 'f1', name: 'Car rental', file_count: 1, used_bytes: 10, expired: false, expire_soon: true, expiration_date: '2026-12-01T12:00:00Z' },
      'GET payments/pricing/': PRICING,
      'POST payments/storage-price-prolong/calculate/': (call: ApiCall) =>
        (call.body as { months: number }).months === 6 ? answer(500, { errors: [{ message: 'boom', code: 'server_error' }] }) : price(call),
    });
    renderAt(makeTestStore(), [{ path: '/extend-storage-date/:folderId', element: <ExtendStorageDatePage /> }], '/extend-storage-date/f1');
    await waitFor(() => expect(screen.getByTestId('new-storage-date')).toHaveTextContent('Jan 1, 2027'));
    fireEvent.click(screen.getByRole('button', { name: '6 months' }));
    expect(await screen.findByText('The price could not be calculated.')).toBeInTheDocument();
    expect(screen.getByTestId('new-storage-date')).toHaveTextContent('—');
    expect(screen.queryByTestId('wallet-total')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue to Checkout' })).toBeDisabled();
  });
});

describe('cost estimator', () => {
  it('prices a size in GB for the chosen months', async () => {
    const calls = serve({ 'GET payments/pricing/': PRICING, 'POST payments/storage-price-prolong/calculate/': price });
    renderAt(makeTestStore(), [{ path: '/cost-estimator-tool', element: <CostEstimatorPage /> }], '/cost-estimator-tool');
    fireEvent.change(screen.getByLabelText('Folder size, GB'), { target: { value: '2.5' } });
    fireEvent.click(await screen.findByRole('button', { name: '6 months' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === 'payments/storage-price-prolong/calculate/').at(-1)?.body).toEqual({ size_bytes: 2_500_000_000, months: 6 }),
    );
    expect(await screen.findByRole('table', { name: 'Estimated cost' })).toBeInTheDocument();
  });

  it('checks the size', () => {
    expect(sizeError('')).toBe('This field is required');
    expect(sizeError('2,5')).toBe('Enter a size in GB, e.g. 2.5');
    expect(sizeError('10001')).toBe('Maximum 10000 GB');
    expect(sizeError('0.25')).toBeUndefined();
  });
});
