// The walkthrough: four steps with Next, Skip at any step, 'Get Started' on the last; both end at
// Home, or at the payment details setup when the walkthrough follows sign-up.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeTestStore, renderAt } from '../../../testing';
import { STEPS, WalkthroughPage } from './WalkthroughPage';

function open(state?: unknown) {
  const { router } = renderAt(
    makeTestStore(),
    [
      { path: '/walkthrough', element: <WalkthroughPage /> },
      { path: '/dashboard/home', element: <p>Home</p> },
      { path: '/payment-details-setup', element: <p>Payment details setup</p> },
    ],
    { pathname: '/walkthrough', state },
  );
  return router;
}

describe('walkthrough', () => {
  it('goes through the steps and ends at Home with Get Started', async () => {
    const router = open();
    const user = userEvent.setup();
    expect(STEPS.map((s) => s.title)).toEqual([
      'Capture evidence',
      'Stored for your storage period',
      'Share authenticated copies',
      'CreditCard Wallet',
    ]);
    for (const [i, step] of STEPS.entries()) {
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(step.title);
      expect(screen.getByLabelText(`Step ${i + 1} of ${STEPS.length}`)).toBeInTheDocument();
      if (i < STEPS.length - 1) {
        expect(screen.queryByRole('button', { name: 'Get Started' })).toBeNull();
        await user.click(screen.getByRole('button', { name: 'Next' }));
      }
    }
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Skip' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Get Started' }));
    expect(router.state.location.pathname).toBe('/dashboard/home');
  });

  it('skips to Home from the first step', async () => {
    const router = open();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Skip' }));
    expect(router.state.location.pathname).toBe('/dashboard/home');
  });

  it('after sign-up, Skip goes on to the payment details setup, still as a step of the onboarding', async () => {
    const router = open({ onboarding: true });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Skip' }));
    expect(router.state.location.pathname).toBe('/payment-details-setup');
    expect(router.state.location.state).toEqual({ onboarding: true });
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('after sign-up, Get Started goes on to the payment details setup', async () => {
    const router = open({ onboarding: true });
    const user = userEvent.setup();
    for (let i = 1; i < STEPS.length; i++) await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Get Started' }));
    expect(router.state.location.pathname).toBe('/payment-details-setup');
  });
});
