// Browser journeys of recovery: a signed-out user who forgot the password gets a code by
// e-mail (newer than the sign-up code to the same address), sets a new password, lands on Home and
// logs in with it later; one who forgot the username gets it by e-mail. Headless Chromium through
// Envoy against the real stack.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { codeFor, eventually, launch, mailFor, newestMail, PASSWORD, phone, signUp, storedLoginInfo, uniqueUser } from './support.mjs';

const NEW_PASSWORD = 'Recover34#';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Logs out through Settings and waits for the start screen. */
async function logOut(page) {
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.waitForURL('**/dashboard/settings');
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  // redux-persist writes the signed-out state a moment after the screen changes: a page loaded
  // before that would still find the session and leave /log-in for the dashboard.
  await eventually('the signed-out state on the device', async () => !(await storedLoginInfo(page))?.accessToken);
}

/** Logs in from the log-in screen with `password`. */
async function logIn(page, username, password) {
  await page.goto('/log-in');
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

describe('forgot password', () => {
  const user = uniqueUser();
  let context;
  let page;

  before(async () => {
    context = await phone(browser);
    page = await context.newPage();
    await signUp(page, user);
    await logOut(page);
  });
  after(async () => context?.close());

  test('a code mailed to the account sets a new password and signs in', async () => {
    // The sign-up code went to the same address: only a newer message carries the reset code.
    const signUpMail = await newestMail();
    await page.goto('/log-in');
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.waitForURL('**/recovery/password');
    // The URL changes before the lazy screen renders, and until then the log-in screen, with a
    // field of the same label, stays: the screen's own words say it is there.
    await page.getByText('Enter your username or e-mail address and we will send you a code').waitFor();
    await page.getByLabel('Username or Email').fill(user.username);
    await page.getByRole('button', { name: 'Continue' }).click();

    // E-mail is the account's communication method; it has a phone, so SMS is offered too.
    const byEmail = page.getByRole('radio', { name: /^E-mail / });
    await byEmail.waitFor();
    assert.equal(await byEmail.isChecked(), true);
    assert.equal(await page.getByRole('radio', { name: /^SMS / }).isChecked(), false);
    await page.getByRole('button', { name: 'Send Code' }).click();

    const code = await codeFor(user.email, { after: signUpMail });
    await page.getByLabel('Confirmation code').fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();

    // spec §5 Password, word for word.
    await page.getByLabel('New password', { exact: true }).fill('short1#');
    await page.getByLabel('Confirm new password').fill('short1#');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await page.getByText('Minimum 8 characters').waitFor();
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').fill(`${NEW_PASSWORD}x`);
    await page.getByRole('button', { name: 'Set Password' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set Password' }).click();

    await page.waitForURL('**/dashboard/home');
    await page.getByText('Your password has been changed.').waitFor();
    await page.getByTestId('username').filter({ hasText: user.username }).waitFor();
    assert.ok((await storedLoginInfo(page))?.accessToken, 'signed in with the session the reset answered');
  });

  test('the old password no longer logs in; the new one does', async () => {
    await logOut(page);
    await logIn(page, user.username, PASSWORD);
    await page.getByText('Wrong Password. Please try again').waitFor();
    await logIn(page, user.username, NEW_PASSWORD);
    await page.waitForURL('**/dashboard/home');
    await page.getByTestId('username').filter({ hasText: user.username }).waitFor();
  });
});

describe('forgot username', () => {
  const user = uniqueUser();
  let context;
  let page;

  before(async () => {
    context = await phone(browser);
    page = await context.newPage();
    await signUp(page, user);
    await logOut(page);
  });
  after(async () => context?.close());

  test('an unknown e-mail is said under the field', async () => {
    await page.goto('/log-in');
    await page.getByRole('link', { name: 'Forgot Username?' }).click();
    await page.waitForURL('**/recovery/username');
    assert.equal(await page.getByRole('radio', { name: 'By E-mail' }).isChecked(), true);
    await page.getByLabel('Email').fill(`nobody-${user.email}`);
    await page.getByRole('button', { name: 'Send Username' }).click();
    await page.getByText('No account found with this email address.').waitFor();
  });

  test('the username is mailed to the account and the screen says where it went', async () => {
    const before = await newestMail();
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Send Username' }).click();
    await page.getByText(/^We sent your username to .+\.$/).waitFor();
    const mail = await mailFor(user.email, 'Your Evidentia username is', { after: before });
    assert.match(mail, new RegExp(`Your Evidentia username is ${user.username}\\b`));
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/log-in');
  });
});
