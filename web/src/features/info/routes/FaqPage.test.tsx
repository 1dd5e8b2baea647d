// The FAQ accordion: every question is a collapsed button; a click shows its answer region and
// sets aria-expanded; a second click hides it again.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeTestStore, renderAt } from '../../../testing';
import { FAQ, FaqPage } from './FaqPage';

describe('faq', () => {
  it('toggles each answer with its question', async () => {
    renderAt(makeTestStore({ signedIn: false }), [{ path: '/faq', element: <FaqPage /> }], '/faq');
    const user = userEvent.setup();
    expect(FAQ.length).toBeGreaterThanOrEqual(8);
    expect(FAQ.length).toBeLessThanOrEqual(10);
    for (const item of FAQ) {
      expect(screen.getByRole('button', { name: item.title })).toHaveAttribute('aria-expanded', 'false');
    }
    expect(screen.queryByRole('region')).toBeNull();

    const question = screen.getByRole('button', { name: 'What is the CreditCard Wallet?' });
    await user.click(question);
    expect(question).toHaveAttribute('aria-expanded', 'true');
    const region = screen.getByRole('region', { name: 'What is the CreditCard Wallet?' });
    expect(question).toHaveAttribute('aria-controls', region.id);
    expect(region).toHaveTextContent('below $5.00');

    const other = screen.getByRole('button', { name: 'How long are my files kept?' });
    await user.click(other);
    expect(screen.getByRole('region', { name: 'How long are my files kept?' })).toHaveTextContent('EXPIRES SOON');
    expect(screen.getAllByRole('region')).toHaveLength(2);

    await user.click(question);
    expect(question).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: 'What is the CreditCard Wallet?' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact-us');
  });
});
