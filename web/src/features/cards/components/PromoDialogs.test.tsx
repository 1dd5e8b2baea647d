import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve } from '../../../testing';
import { PromoAppliedDialog, PromoDialog } from './PromoDialogs';

afterEach(() => vi.unstubAllGlobals());

function renderDialog(props: Partial<Parameters<typeof PromoDialog>[0]> = {}) {
  const handlers = { onApplied: vi.fn(), onProceedWithout: vi.fn(), onCancel: vi.fn() };
  renderAt(makeTestStore(), [{ path: '/', element: <PromoDialog isOpen {...handlers} {...props} /> }], '/');
  return handlers;
}

describe('the promo dialog', () => {
  it('applies only a complete code, sent upper case without the space', async () => {
    const calls = serve({ 'POST shareable-codes/promo-code/check/': { amount: 500 } });
    const { onApplied } = renderDialog();
    expect(screen.getByRole('heading', { name: 'Enter Promo Code' })).toBeInTheDocument();
    const apply = screen.getByRole('button', { name: 'Apply Promo Code' });
    const input = screen.getByLabelText('Promo Code');
    expect(apply).toBeDisabled();
    await userEvent.type(input, 'abc12');
    expect(input).toHaveValue('ABC 12');
    expect(apply).toBeDisabled();
    await userEvent.type(input, '3');
    expect(input).toHaveValue('ABC 123');
    expect(apply).toBeEnabled();
    await userEvent.click(apply);
    await waitFor(() => expect(onApplied).toHaveBeenCalledWith(500));
    expect(calls[0]?.body).toEqual({ code: 'ABC123' });
    expect(calls[0]?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shows the first server error on the field when the code is rejected', async () => {
    serve({ 'POST shareable-codes/promo-code/check/': answer(400, { errors: [{ message: 'This promo code is not valid.' }, { message: 'second' }] }) });
    const { onApplied } = renderDialog();
    await userEvent.type(screen.getByLabelText('Promo Code'), 'zzz999');
    await userEvent.click(screen.getByRole('button', { name: 'Apply Promo Code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This promo code is not valid.');
    expect(onApplied).not.toHaveBeenCalled();
  });

  it('proceeds without a code or cancels', async () => {
    serve({});
    const { onProceedWithout, onCancel } = renderDialog();
    await userEvent.click(screen.getByRole('button', { name: 'Proceed without Promo Code' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onProceedWithout).toHaveBeenCalledOnce();
    expect(onCancel).toHaveBeenCalledOnce();
  });
});

describe('the promo confirmation', () => {
  it('titles the amount and promises no card charge', async () => {
    const onProceed = vi.fn();
    renderAt(makeTestStore(), [{ path: '/', element: <PromoAppliedDialog isOpen amount={500} onProceed={onProceed} /> }], '/');
    expect(screen.getByRole('heading', { name: '$5 Promo Applied' })).toBeInTheDocument();
    expect(screen.getByText("Your credit card won't be charged until your Evidentia Wallet balance expires.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Proceed' }));
    expect(onProceed).toHaveBeenCalledOnce();
  });
});
