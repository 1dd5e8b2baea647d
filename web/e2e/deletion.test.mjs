// Browser journey of account deletion and recovery: signed in, Settings -> what deleting
// means -> a reason ('Other' needs details) -> the password (a wrong one is refused) -> deleted,
// logged out on the start screen with the recoverable-until date; log in then shows the deleted
// message, 'Recover Account' signs in on Home. Headless Chromium through Envoy against the stack.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch, PASSWORD, phone, signUp, storedLoginInfo, uniqueUser } from './support.mjs';

const DETAILS = 'Trying the deletion journey';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('delete and recover an account', () => {
  const user = uniqueUser();
  let context;
  let page;

  before(async () => {
    context = await phone(browser);
    page = await context.newPage();
    await signUp(page, user);
  });
  after(async () => context?.close());

  test('Settings leads to what deleting means, then to the reasons', async () => {
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.waitForURL('**/dashboard/settings');
    await page.getByRole('navigation', { name: 'Security' }).getByRole('link', { name: 'Delete Account' }).click();
    await page.waitForURL('**/deleting-of-evidentia-account');
    await page.getByText(/paused for 30 days/).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/deleting-my-account-reasons');
  });

  test("'Other' needs a few words", async () => {
    // Located by id: the titles are the server's.
    await page.locator('input[type="radio"][value="other"]').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Please tell us why.').waitFor();
    await page.getByLabel('Tell us why').fill(DETAILS);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/deleting-my-account-confirm');
  });

  test('the confirm screen keeps the reason over a reload and refuses a wrong password', async () => {
    await page.reload();
    await page.getByText(DETAILS, { exact: false }).waitFor();
    await page.getByLabel('Password').fill('Wrong12#pass');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await page.getByText('Wrong Password. Please try again').waitFor();
    assert.match(page.url(), /\/deleting-my-account-confirm$/);
  });

  test('deleting logs the device out and the start screen says until when it can be recovered', async () => {
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText(/^Your account was deleted\. You can recover it until [A-Z][a-z]{2} \d{1,2}, \d{4}\.$/).waitFor();
    assert.equal((await storedLoginInfo(page))?.accessToken ?? null, null);
    await page.goto('/dashboard/home');
    await page.waitForURL((url) => url.pathname === '/');
  });

  test('log in shows the deleted message and Recover Account signs in on Home', async () => {
    await page.getByRole('link', { name: 'Log In' }).click();
    await page.waitForURL('**/log-in');
    await page.getByLabel('Username or Email').fill(user.username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText(/^This account was deleted\. You can recover it until /).waitFor();
    await page.getByRole('button', { name: 'Recover Account' }).click();
    await page.waitForURL('**/dashboard/home');
    await page.getByText('Your account has been recovered.').waitFor();
    await page.getByTestId('username').filter({ hasText: user.username }).waitFor();
    assert.ok((await storedLoginInfo(page))?.accessToken);
  });
});
