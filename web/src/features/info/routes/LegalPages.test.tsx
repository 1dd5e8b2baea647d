// /legal links to both documents and the help pages; each document has plain sections.
import { render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { makeTestStore, renderAt, serve } from '../../../testing';
import { ContactUsPage } from './ContactUsPage';
import { FaqPage } from './FaqPage';
import { LegalPage } from './LegalPage';
import { PolicyPage } from './PolicyPage';
import { TechSupportPage } from './TechSupportPage';
import { TermsPage } from './TermsPage';

const links = (name: string) =>
  within(screen.getByRole('navigation', { name }))
    .getAllByRole('link')
    .map((a) => [a.textContent, a.getAttribute('href')]);

describe('information pages', () => {
  it('/legal lists the documents and the help pages', () => {
    renderAt(makeTestStore({ signedIn: false }), [{ path: '/legal', element: <LegalPage /> }], '/legal');
    expect(links('Legal documents')).toEqual([
      ['Terms of Use', '/legal/terms'],
      ['Privacy Policy', '/legal/policy'],
    ]);
    expect(links('Help')).toEqual([
      ['FAQ', '/faq'],
      ['Tech Support', '/tech-support'],
      ['Contact Us', '/contact-us'],
    ]);
  });

  it('the terms cover storage, payments, sharing and deletion', () => {
    render(
      <MemoryRouter>
        <TermsPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Terms of Use');
    expect(screen.getByRole('region', { name: '4. What a record proves' })).toHaveTextContent('SHA-256');
    expect(screen.getByRole('region', { name: '6. Payments and the CreditCard Wallet' })).toHaveTextContent('Stripe');
    expect(screen.getByRole('region', { name: '8. Deleting your account' })).toHaveTextContent('grace period');
    expect(screen.getByRole('link', { name: 'Back to Legal' })).toHaveAttribute('href', '/legal');
  });

  it('the policy says what is stored and for how long', () => {
    render(
      <MemoryRouter>
        <PolicyPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Privacy Policy');
    expect(screen.getByRole('region', { name: '2. What we store' })).toHaveTextContent('SHA-256');
    expect(screen.getByRole('region', { name: '5. How long we keep it' })).toHaveTextContent('storage date');
  });

  it('tech support links to the contact form', () => {
    renderAt(makeTestStore({ signedIn: false }), [{ path: '/tech-support', element: <TechSupportPage /> }], '/tech-support');
    expect(screen.getByRole('region', { name: 'Camera and microphone' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact-us');
  });

  it('each help page leads back: to Settings when signed in, else to the start screen', async () => {
    const pages = [
      ['/legal', <LegalPage key="legal" />],
      ['/faq', <FaqPage key="faq" />],
      ['/tech-support', <TechSupportPage key="tech" />],
      ['/contact-us', <ContactUsPage key="contact" />],
    ] as const;
    const calls = serve({});
    for (const [path, element] of pages) {
      for (const signedIn of [true, false]) {
        const { unmount } = renderAt(makeTestStore({ signedIn }), [{ path, element }], path);
        const back = signedIn ? screen.getByRole('link', { name: 'Back to Settings' }) : screen.getByRole('link', { name: 'Back to Start' });
        expect(back, `${path} signed ${signedIn ? 'in' : 'out'}`).toHaveAttribute('href', signedIn ? '/dashboard/settings' : '/');
        unmount();
      }
    }
    // Contact Us asks for the signed-in user's address: let that call finish before the stub goes.
    await waitFor(() => expect(calls.some((c) => c.path === 'accounts/me/')).toBe(true));
    vi.unstubAllGlobals();
  });
});
