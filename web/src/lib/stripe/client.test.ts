import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const dispatch = vi.fn();
vi.mock('../api/payments', () => ({ paymentsApi: { endpoints: { paymentsConfig: { initiate: () => 'config' } } } }));
const loadStripe = vi.fn(async (key: string) => ({ key }));
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe: (key: string) => loadStripe(key) }));

const { isCardDeclined, loadStripeClient, resetStripeClientForTests } = await import('./client');

/** Fires 'load' on the injected script once it is in the document. */
async function scriptLoaded(src: string) {
  await vi.waitFor(() => expect(document.querySelector(`script[src="${src}"]`)).not.toBeNull());
  document.querySelector(`script[src="${src}"]`)!.dispatchEvent(new Event('load'));
}

describe('loading Stripe.js', () => {
  beforeEach(() => {
    resetStripeClientForTests();
    dispatch.mockReset();
    loadStripe.mockClear();
    document.head.innerHTML = '';
  });
  afterEach(() => vi.restoreAllMocks());

  it('loads the configured script once and the configured key', async () => {
    dispatch.mockResolvedValue({ data: { publishableKey: 'pk_test_abc', stripeJsUrl: 'https://js.example/v3/' } });
    const first = loadStripeClient(dispatch);
    const second = loadStripeClient(dispatch);
    await scriptLoaded('https://js.example/v3/');
    expect(await first).toEqual({ key: 'pk_test_abc' });
    expect(await second).toBe(await first);
    expect(document.querySelectorAll('script')).toHaveLength(1);
    expect(dispatch).toHaveBeenCalledTimes(1);
    expect(loadStripe).toHaveBeenCalledTimes(1);
  });

  it('never falls back to the local stand-in: a missing config endpoint (404) is an error', async () => {
    dispatch.mockResolvedValue({ error: { status: 404, data: {} } });
    await expect(loadStripeClient(dispatch)).rejects.toThrow('Could not get the payments configuration');
    expect(document.querySelectorAll('script')).toHaveLength(0);
    expect(loadStripe).not.toHaveBeenCalled();
  });

  it('fails on any other config error, and tries again on the next call', async () => {
    dispatch.mockResolvedValueOnce({ error: { status: 500, data: {} } });
    await expect(loadStripeClient(dispatch)).rejects.toThrow('Could not get the payments configuration');
    expect(document.querySelectorAll('script')).toHaveLength(0);
    dispatch.mockResolvedValueOnce({ data: { publishableKey: 'pk_test_abc', stripeJsUrl: 'https://js.example/v3/' } });
    const again = loadStripeClient(dispatch);
    await scriptLoaded('https://js.example/v3/');
    expect(await again).toEqual({ key: 'pk_test_abc' });
  });
});

describe('declines', () => {
  it('are card_declined errors or errors with a decline code', () => {
    expect(isCardDeclined({ type: 'card_error', code: 'card_declined' })).toBe(true);
    expect(isCardDeclined({ type: 'card_error', code: 'card_error', decline_code: 'insufficient_funds' })).toBe(true);
    expect(isCardDeclined({ type: 'card_error', code: 'expired_card' })).toBe(false);
    expect(isCardDeclined(undefined)).toBe(false);
  });
});
