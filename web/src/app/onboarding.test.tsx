// After sign-up, through the access guard and the real screens: the new user is led to the
// walkthrough, then to the payment details setup, then Home, and can skip each (the card form is
// replaced at the module boundary; its own tests cover it).
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { makeTestStore, renderAt, serve } from '../testing';
import { SignUpPage } from '../features/auth/routes/SignUpPage';
import { PaymentDetailsSetupPage } from '../features/cards/routes/PaymentDetailsSetupPage';
import { WalkthroughPage } from '../features/info/routes/WalkthroughPage';

vi.mock('../features/cards/components/PaymentInformationForm', () => ({
  PaymentInformationForm: () => <h1>Payment information</h1>,
}));
vi.mock('../lib/stripe', () => ({ StripeElements: ({ children }: { children: React.ReactNode }) => children }));

afterEach(() => vi.unstubAllGlobals());

it('leads a new user from sign-up through the walkthrough and the payment details setup to Home, each skipped', async () => {
  serve({
    'POST accounts/email-username-phone-number/verify/': { email: true, username: true, phone_number: true },
    'POST accounts/confirmation-code/send/': { expires_in_seconds: 600, sent_to: 'ann@example.com' },
    'POST accounts/confirmation-code/verify/': { verification_token: 'vt-1' },
    'POST accounts/create/': { access: 'new-access', refresh: 'new-refresh' },
  });
  const store = makeTestStore({ signedIn: false });
  const { router } = renderAt(
    store,
    [
      { path: '/sign-up', element: <SignUpPage /> },
      { path: '/walkthrough', element: <WalkthroughPage /> },
      { path: '/payment-details-setup', element: <PaymentDetailsSetupPage /> },
      { path: '/dashboard/home', element: <p>Home screen</p> },
    ],
    '/sign-up',
    { guarded: true },
  );
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Username'), 'ann');
  await user.type(screen.getByLabelText('Email'), 'ann@example.com');
  await user.type(screen.getByLabelText('Password'), 'Secret12#');
  await user.type(screen.getByLabelText('Phone number'), '4155550100');
  await user.tab();
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.type(await screen.findByLabelText('Confirmation code'), '123456');
  await user.click(screen.getByRole('button', { name: 'Confirm' }));

  await screen.findByRole('heading', { name: 'Capture evidence' });
  expect(router.state.location.pathname).toBe('/walkthrough');
  await user.click(screen.getByRole('button', { name: 'Skip' }));

  await screen.findByRole('heading', { name: 'Payment information' });
  expect(router.state.location.pathname).toBe('/payment-details-setup');
  await user.click(screen.getByRole('button', { name: 'Skip for now' }));

  await screen.findByText('Home screen');
  await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/home'));
}, 20000);
