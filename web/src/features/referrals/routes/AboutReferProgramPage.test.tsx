// How it works: the steps and rules in the API's numbers (rewards, monthly cap), and the states.
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve } from '../../../testing';
import { apiReferralInfo } from '../testing/helpers';
import { AboutReferProgramPage, RULES_NOT_LOADED } from './AboutReferProgramPage';

afterEach(() => vi.unstubAllGlobals());

function open() {
  renderAt(makeTestStore(), [{ path: '/about-refer-program', element: <AboutReferProgramPage /> }], '/about-refer-program');
}

describe('how referrals work', () => {
  it("explains the programme in the API's numbers", async () => {
    serve({ 'GET shareable-codes/referral-info/': apiReferralInfo({ referrer_reward: 1000, friend_reward: 1000, monthly_cap: 3 }) });
    open();
    expect(
      await screen.findByText('You and your friend each get $10.00 in your CreditCard Wallet when your friend makes their first payment.'),
    ).toBeInTheDocument();
    const rules = within(screen.getByRole('list', { name: 'The rules' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(rules).toEqual([
      'You can be rewarded for up to 3 friends each month.',
      'Each friend earns you one reward, however many times you invite them.',
      'Inviting yourself (another account of your own) earns no reward.',
      'When something about a reward looks wrong, it is held for review before it reaches your wallet.',
    ]);
  });

  it('says when the details could not be loaded', async () => {
    serve({ 'GET shareable-codes/referral-info/': answer(404, { errors: [{ message: 'Not found.' }] }) });
    open();
    expect(await screen.findByText(RULES_NOT_LOADED)).toBeInTheDocument();
  });
});
