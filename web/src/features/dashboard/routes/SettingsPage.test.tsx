// Settings lists the account screens, the organization's screens for an organization
// account only, the payments entries: payment methods, the wallet (its screen shows the
// intro while there is none), pricing models and the cost estimator; refer a friend; the
// information pages; and deleting the account.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTestStore, renderAt, serve } from '../../../testing';
import { meApi } from '../../../lib/api/me';
import { SettingsPage } from './SettingsPage';

afterEach(() => vi.unstubAllGlobals());

function open() {
  const store = makeTestStore();
  renderAt(store, [{ path: '/dashboard/settings', element: <SettingsPage /> }], '/dashboard/settings');
  return store;
}

const linksOf = (name: string) =>
  within(screen.getByRole('navigation', { name }))
    .getAllByRole('link')
    .map((a) => [a.textContent, a.getAttribute('href')]);

const profile = (organization: unknown) => ({
  id: 'u1',
  username: 'ann',
  account_type: organization ? 'organization' : 'individual',
  organization,
});

describe('settings', () => {
  it('links to the payments screens and the information pages', () => {
    serve({});
    open();
    expect(linksOf('Payments')).toEqual([
      ['Payment Methods', '/payment-methods'],
      ['CreditCard Wallet', '/stored-account'],
      ['Pricing Models', '/pricing-models'],
      ['Cost Estimator', '/cost-estimator-tool'],
    ]);
    expect(linksOf('Invite friends')).toEqual([['Refer a Friend', '/refer-a-friend']]);
    expect(linksOf('Help and legal')).toEqual([
      ['Legal', '/legal'],
      ['FAQ', '/faq'],
      ['Tech Support', '/tech-support'],
      ['Contact Us', '/contact-us'],
    ]);
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });

  it('links to the account screens and to deleting the account', () => {
    serve({});
    open();
    expect(linksOf('Account')).toEqual([
      ['Account Info', '/account-info'],
      ['Change Address', '/change-address'],
      ['Change Password', '/change-password'],
      ['Date and Time', '/date-and-time'],
      ['Events History', '/events-history'],
    ]);
    expect(linksOf('Security')).toEqual([['Delete Account', '/deleting-of-evidentia-account']]);
  });

  it("shows the organization's screens to an organization account", async () => {
    serve({ 'GET accounts/me/': profile({ id: 'o1', name: 'Acme', role: 'owner' }) });
    open();
    await screen.findByRole('navigation', { name: 'Organization' });
    expect(linksOf('Organization')).toEqual([
      ['Participants', '/organization-participants'],
      ['Organization Captures', '/dashboard/organization-captures'],
    ]);
  });

  it('has no organization entries for an individual account', async () => {
    serve({ 'GET accounts/me/': profile(null) });
    const store = open();
    // Once the profile has arrived, still no organization section.
    await waitFor(() => expect(meApi.endpoints.me.select()(store.getState()).data?.username).toBe('ann'));
    expect(screen.queryByRole('navigation', { name: 'Organization' })).not.toBeInTheDocument();
  });
});
