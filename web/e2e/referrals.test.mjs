// Browser journeys of the referral programme (spec §2 "Referral" routes and the sign-up with
// referred=true, §7 "Shareable codes"): a user invites a friend by e-mail, the friend opens the
// link from the mail sink in a fresh browser, sees who invited them and signs up, and the
// invitation then counts as signed up; the friend pays at checkout and both wallets show the
// reward; an invitation by SMS reaches the SMS sink; a signed-in user who opens a referral link
// is logged out and sees the sign-up.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  api,
  BASE_URL,
  codeFor,
  eventually,
  launch,
  mailFor,
  newestMail,
  PASSWORD,
  phone,
  saveCard,
  skipOnboarding,
  smsFor,
  storedLoginInfo,
  uniqueUser,
} from './support.mjs';

// The friend's own card: a card of the inviter's would make the sign-up a self-referral.
const FRIEND_CARD = '5555555555554444';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A message's text with quoted-printable soft breaks and '=3D' undone, and '&amp;' read as '&'. */
const plain = (text) => text.replace(/=\r?\n/g, '').replace(/=3D/gi, '=').replace(/&amp;/g, '&');

/** The referral link in a message's text, as an address on the stack under test. */
function referralLinkIn(text) {
  const match = /https?:\/\/[^\s"'<>]*\/sign-up\?[^\s"'<>]*referred=true[^\s"'<>]*/.exec(plain(text));
  assert.ok(match, `a referral link in:\n${text}`);
  const link = new URL(match[0]);
  return new URL(`${link.pathname}${link.search}`, BASE_URL).href;
}

/** POSTs to the API without a session; the parsed JSON body. */
async function post(path, body) {
  const response = await fetch(`${BASE_URL}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** Signs `user` up through the API (e-mail code included), with a first name. */
async function createAccount(user, firstName) {
  const after = await newestMail();
  await post('accounts/confirmation-code/send/', { email: user.email, purpose: 'sign_up' });
  const code = await codeFor(user.email, { after });
  const { verification_token: token } = await post('accounts/confirmation-code/verify/', { email: user.email, code, purpose: 'sign_up' });
  await post('accounts/create/', {
    username: user.username,
    email: user.email,
    password: PASSWORD,
    first_name: firstName,
    phone_number: { country_code: '+1', national_number: user.phone },
    verification_token: token,
  });
}

describe('referrals', () => {
  const referrer = uniqueUser();
  const friend = uniqueUser();
  const smsFriend = uniqueUser();
  let context;
  let page;
  let code;
  let link;
  let friendContext;

  before(async () => {
    // The referral check names the inviter by the first name given on signing up, which the
    // sign-up screen does not ask: the inviter is made through the API with one, then logs in.
    await createAccount(referrer, 'Ann');
    context = await phone(browser);
    page = await context.newPage();
    await page.goto('/log-in');
    await page.getByLabel('Username or Email').fill(referrer.username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL('**/dashboard/home');
  });
  after(async () => {
    await friendContext?.close();
    await context?.close();
  });

  test('shows the code, the link and the reward on Refer a Friend, reached from Settings', async () => {
    await page.goto('/dashboard/settings');
    await page.getByRole('link', { name: 'Refer a Friend' }).click();
    await page.waitForURL('**/refer-a-friend');
    code = (await page.getByTestId('referral-code').textContent()).trim();
    const info = await api(page, 'GET', 'shareable-codes/referral-info/');
    assert.equal(code, info.code);
    assert.match(await page.getByTestId('referral-link').textContent(), new RegExp(`code=${code}`));
    await page.getByText(/in your CreditCard Wallet/).first().waitFor();
    await page.getByRole('link', { name: 'How it works' }).click();
    await page.getByText(`You can be rewarded for up to ${info.monthly_cap}`).waitFor();
  });

  test('invites a friend by e-mail and lists the invitation', async () => {
    await page.goto('/refer-a-friend');
    await page.getByRole('link', { name: 'Invite by E-mail' }).click();
    await page.waitForURL('**/refer/email');
    await page.getByLabel("Friend's name (optional)").fill('Bob');
    await page.getByLabel("Friend's email").fill(friend.email);
    await page.getByRole('button', { name: 'Send Invitation' }).click();
    await page.waitForURL('**/referral-code');
    await page.getByText(`Invitation sent to ${friend.email}.`).waitFor();
    const row = page.getByRole('listitem', { name: 'Bob' });
    await row.getByText(friend.email).waitFor();
    await row.getByText('Invited').waitFor();
    // Just sent: Resend waits for resend_after.
    const { invitations } = await api(page, 'GET', 'shareable-codes/retrieve/');
    const sent = invitations.find((i) => i.sent_to === friend.email);
    assert.ok(sent, 'the invitation is listed by the API');
    if (sent.resend_after && Date.parse(sent.resend_after) > Date.now()) {
      assert.equal(await row.getByRole('button', { name: 'Resend to Bob' }).isDisabled(), true);
    }
    link = referralLinkIn(await mailFor(friend.email, 'referred'));
    assert.match(link, new RegExp(`code=${code}`));
  });

  test('the friend opens the link in a fresh browser, sees who invited them and signs up', async () => {
    friendContext = await phone(browser);
    const friendPage = await friendContext.newPage();
    await friendPage.goto(link);
    await friendPage.getByText('Invited by Ann').waitFor();
    await friendPage.getByLabel('Username').fill(friend.username);
    await friendPage.getByLabel('Email').fill(friend.email);
    await friendPage.getByLabel('Country code').selectOption('+1');
    await friendPage.getByLabel('Phone number').fill(friend.phone);
    await friendPage.getByLabel('Password').fill(PASSWORD);
    await friendPage.getByRole('button', { name: 'Continue' }).click();
    await friendPage.getByLabel('Confirmation code').fill(await codeFor(friend.email));
    await friendPage.getByRole('button', { name: 'Confirm' }).click();
    await skipOnboarding(friendPage);
    await eventually(
      'the invitation counted as signed up',
      async () => {
        const { invitations } = await api(page, 'GET', 'shareable-codes/retrieve/');
        return invitations.find((i) => i.sent_to === friend.email)?.status === 'signed_up';
      },
      30000,
    );
    await page.goto('/referral-code');
    await page.getByRole('listitem', { name: 'Bob' }).getByText('Signed up').waitFor();
  });

  test("the friend's first payment credits both wallets once, shown in their transactions", async () => {
    const friendPage = friendContext.pages()[0];
    const card = await saveCard(friendPage, FRIEND_CARD);
    await api(friendPage, 'POST', 'payments/payment-method/set-default/', { payment_method_id: card.id });
    const folder = await api(friendPage, 'POST', 'evidence/folders/create/', { name: 'First payment' });
    const price = await api(friendPage, 'POST', 'payments/storage-price-prolong/calculate/', { folder_id: folder.id, months: 3 });
    await friendPage.goto(`/extend-storage-date/${folder.id}`);
    await friendPage.getByRole('button', { name: '3 months' }).click();
    await friendPage.getByTestId('new-storage-date').filter({ hasNotText: '—' }).waitFor();
    await friendPage.getByRole('button', { name: 'Continue to Checkout' }).click();
    await friendPage.waitForURL('**/checkout?**');
    await friendPage.getByRole('radio', { name: /Credit Card/ }).check();
    await friendPage.getByRole('button', { name: `Pay $${(price.total / 100).toFixed(2)}` }).click();
    await friendPage.waitForURL('**/extend-storage-success?**', { timeout: 30000 });

    for (const who of [friendPage, page]) {
      await eventually(
        'the referral reward in the wallet',
        async () => (await api(who, 'GET', 'payments/transactions/')).movements.some((m) => m.kind === 'referral' && m.amount === 500),
        30000,
      );
      await who.goto('/transaction-info');
      const rewards = who.getByTestId('movement').filter({ hasText: 'Referral reward' });
      await rewards.getByText('+$5.00').waitFor();
      assert.equal(await rewards.count(), 1, 'one reward each');
    }
    await page.goto('/refer-a-friend');
    await page.locator('.referrals-counts__item').filter({ hasText: 'Total earned' }).getByText('$5.00').waitFor();
    await page.goto('/referral-code');
    await page.getByRole('listitem', { name: 'Bob' }).getByText('Rewarded').waitFor();
  });

  test('a signed-in user who opens a referral link is logged out and sees the sign-up', async () => {
    const friendPage = friendContext.pages()[0];
    assert.ok((await storedLoginInfo(friendPage))?.accessToken, 'the friend is signed in');
    await friendPage.goto(link);
    await friendPage.getByRole('heading', { level: 1, name: 'Sign Up' }).waitFor();
    await friendPage.getByText('Invited by Ann').waitFor();
    await eventually('the session forgotten', async () => !(await storedLoginInfo(friendPage))?.accessToken);
    assert.equal(new URL(friendPage.url()).pathname, '/sign-up');
  });

  test('invites a friend by SMS, which reaches the SMS sink', async () => {
    await page.goto('/refer/sms');
    await page.getByLabel('Country code').selectOption('+1');
    await page.getByLabel('Phone number').fill(smsFriend.phone);
    await page.getByLabel('Phone number').blur();
    await page.getByRole('button', { name: 'Send Invitation' }).click();
    await page.waitForURL('**/referral-code');
    const body = await smsFor(`+1${smsFriend.phone}`, code);
    assert.match(referralLinkIn(body), new RegExp(`code=${code}`));
    const row = page.getByRole('listitem').filter({ hasText: smsFriend.phone });
    await row.getByText('SMS').waitFor();
  });
});
