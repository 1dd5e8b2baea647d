// Settings lists the payments entries (issue 4): payment methods, the wallet (its screen shows the
// intro while there is none), pricing models and the cost estimator; and the information pages.
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makePaymentsStore, renderAt, serve } from '../../../components/payments/testing';
import { SettingsPage } from './SettingsPage';

afterEach(() => vi.unstubAllGlobals());

describe('settings', () => {
  it('links to the payments screens', () => {
    serve({});
    renderAt(makePaymentsStore(), [{ path: '/dashboard/settings', element: <SettingsPage /> }], '/dashboard/settings');
    const nav = screen.getByRole('navigation', { name: 'Payments' });
    const links = within(nav)
      .getAllByRole('link')
      .map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Payment Methods', '/payment-methods'],
      ['CreditCard Wallet', '/stored-account'],
      ['Pricing Models', '/pricing-models'],
      ['Cost Estimator', '/cost-estimator-tool'],
    ]);
    const help = within(screen.getByRole('navigation', { name: 'Help and legal' }))
      .getAllByRole('link')
      .map((a) => [a.textContent, a.getAttribute('href')]);
    expect(help).toEqual([
      ['Legal', '/legal'],
      ['FAQ', '/faq'],
      ['Tech Support', '/tech-support'],
      ['Contact Us', '/contact-us'],
    ]);
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });
});
