// Refer a Friend: the code, link, reward sentence and counts from referral-info (no fixed
// amounts), the actions' destinations, Share through the system sheet or Copy link without one,
// and the loading and failure states.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve } from '../../../testing';
import { apiReferralInfo } from '../testing/helpers';
import type { ShareTarget } from '../model/share';
import { INFO_NOT_LOADED, LINK_COPIED, ReferAFriendPage } from './ReferAFriendPage';

afterEach(() => vi.unstubAllGlobals());

function open(shareTarget: ShareTarget = {}) {
  const store = makeTestStore();
  const view = renderAt(
    store,
    [
      { path: '/refer-a-friend', element: <ReferAFriendPage shareTarget={shareTarget} /> },
      { path: '/refer/:type', element: <p>Invite screen</p> },
      { path: '/referral-code', element: <p>Invitations screen</p> },
      { path: '/about-refer-program', element: <p>About screen</p> },
    ],
    '/refer-a-friend',
    { guarded: true },
  );
  return { ...view, store };
}

describe('refer a friend', () => {
  it("shows the code, the link, the API's reward and the counts", async () => {
    serve({ 'GET shareable-codes/referral-info/': apiReferralInfo({ referrer_reward: 700, friend_reward: 300, invited: 4, signed_up: 2, rewarded: 1, earned: 700 }) });
    open();
    expect(await screen.findByTestId('referral-code')).toHaveTextContent('AB2CD3EF');
    expect(screen.getByTestId('referral-link')).toHaveTextContent('http://127.0.0.1:8080/sign-up?referred=true&code=AB2CD3EF');
    expect(
      screen.getByText('You get $7.00 and your friend gets $3.00 in your CreditCard Wallets when your friend makes their first payment.'),
    ).toBeInTheDocument();
    const counts = within(screen.getByLabelText('Your referrals'));
    const value = (label: string) => counts.getByText(label).nextElementSibling?.textContent;
    expect(value('Invited')).toBe('4');
    expect(value('Signed up')).toBe('2');
    expect(value('Rewarded')).toBe('1');
    expect(value('Total earned')).toBe('$7.00');
  });

  it('says the equal rewards the way the spec words them', async () => {
    serve({ 'GET shareable-codes/referral-info/': apiReferralInfo() });
    open();
    expect(
      await screen.findByText('You and your friend each get $5.00 in your CreditCard Wallet when your friend makes their first payment.'),
    ).toBeInTheDocument();
  });

  it('leads to the invite forms, the invitations and how it works', async () => {
    serve({ 'GET shareable-codes/referral-info/': apiReferralInfo() });
    open();
    await screen.findByTestId('referral-code');
    expect(screen.getByRole('link', { name: 'Invite by SMS' })).toHaveAttribute('href', '/refer/sms');
    expect(screen.getByRole('link', { name: 'Invite by E-mail' })).toHaveAttribute('href', '/refer/email');
    expect(screen.getByRole('link', { name: 'My Invitations' })).toHaveAttribute('href', '/referral-code');
    expect(screen.getByRole('link', { name: 'How it works' })).toHaveAttribute('href', '/about-refer-program');
  });

  it('opens the system share sheet with the link where there is one', async () => {
    serve({ 'GET shareable-codes/referral-info/': apiReferralInfo() });
    const share = vi.fn(async (_data: ShareData) => {});
    open({ share });
    await userEvent.click(await screen.findByRole('button', { name: 'Share' }));
    expect(share).toHaveBeenCalledWith(expect.objectContaining({ url: 'http://127.0.0.1:8080/sign-up?referred=true&code=AB2CD3EF' }));
    expect(vi.mocked(share).mock.calls[0]?.[0]?.text).toContain('AB2CD3EF');
  });

  it('copies the link and says so without a share sheet', async () => {
    serve({ 'GET shareable-codes/referral-info/': apiReferralInfo() });
    const writeText = vi.fn(async () => {});
    const { store } = open({ clipboard: { writeText } });
    await userEvent.click(await screen.findByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith('http://127.0.0.1:8080/sign-up?referred=true&code=AB2CD3EF');
    expect(store.getState().snackbar).toMatchObject({ isShown: true, message: LINK_COPIED });
  });

  it('says it is loading, then that the code could not be loaded, and tries again', async () => {
    let fail = true;
    serve({ 'GET shareable-codes/referral-info/': () => (fail ? answer(400, { errors: [{ message: 'No.' }] }) : apiReferralInfo()) });
    open();
    expect(screen.getByRole('status')).toHaveTextContent('Loading your referral code...');
    expect(await screen.findByText(INFO_NOT_LOADED)).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('referral-code')).toHaveTextContent('AB2CD3EF');
  });

  it('is for signed-in users only', async () => {
    serve({});
    const store = makeTestStore({ signedIn: false });
    const { router } = renderAt(
      store,
      [
        { path: '/refer-a-friend', element: <ReferAFriendPage /> },
        { path: '/', element: <p>Start screen</p> },
      ],
      '/refer-a-friend',
      { guarded: true },
    );
    expect(await screen.findByText('Start screen')).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ from: '/refer-a-friend' });
  });
});
