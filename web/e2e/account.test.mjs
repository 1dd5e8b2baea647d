// Browser journey of the account screens, signed in: Settings to Account Info, the §5
// messages of the name and username forms behind the current password, an e-mail change confirmed
// with the code mailed to the new address, the address and password changes with their messages,
// the events history with its filters, and a time zone that survives a reload. Headless Chromium
// through Envoy against the real stack.
/* global document -- page.evaluate bodies run in the browser. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { codeFor, eventually, launch, PASSWORD, phone, signUp, storedLoginInfo, uniqueUser } from './support.mjs';

const NEW_PASSWORD = 'Changed34#';

/** The error message under the field labelled exactly `label`, or null. */
async function errorOf(scope, label) {
  return scope.getByLabel(label, { exact: true }).evaluate((input) => {
    const id = input.getAttribute('aria-describedby');
    return id ? (document.getElementById(id)?.textContent ?? null) : null;
  });
}

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('account screens', () => {
  const user = uniqueUser();
  const newEmail = `new-${user.email}`;
  let context;
  let page;

  before(async () => {
    context = await phone(browser);
    page = await context.newPage();
    await signUp(page, user);
  });
  after(async () => context?.close());

  test('Settings leads to Account Info, which shows the profile', async () => {
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.waitForURL('**/dashboard/settings');
    const account = page.getByRole('navigation', { name: 'Account' });
    for (const name of ['Change Address', 'Change Password', 'Date and Time', 'Events History']) {
      await account.getByRole('link', { name }).waitFor();
    }
    await page.getByRole('navigation', { name: 'Security' }).getByRole('link', { name: 'Delete Account' }).waitFor();
    await account.getByRole('link', { name: 'Account Info' }).click();
    await page.waitForURL('**/account-info');
    await page.getByTestId('account-username').filter({ hasText: user.username }).waitFor();
    assert.equal(await page.getByTestId('account-email').innerText(), user.email);
    assert.match(await page.getByTestId('account-phone').innerText(), new RegExp(`^\\+1 ${user.phone}$`));
    assert.equal(await page.getByTestId('account-type').innerText(), 'Individual');
    assert.match(await page.getByTestId('account-member-since').innerText(), /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    assert.equal(await page.getByRole('radio', { name: 'E-mail', exact: true }).isChecked(), true);
  });

  test('the name form shows the §5 Name messages', async () => {
    await page.getByRole('button', { name: 'Edit name', exact: true }).click();
    const sheet = page.getByRole('dialog', { name: 'Change Name' });
    await sheet.getByLabel('First name', { exact: true }).fill('');
    await sheet.getByLabel('Last name', { exact: true }).fill('L');
    await sheet.getByRole('button', { name: 'Save' }).click();
    assert.equal(await errorOf(sheet, 'First name'), 'This field is required');
    assert.equal(await errorOf(sheet, 'Last name'), 'Minimum 2 characters');
    await sheet.getByLabel('Last name', { exact: true }).fill('L'.repeat(151));
    await sheet.getByRole('button', { name: 'Save' }).click();
    assert.equal(await errorOf(sheet, 'Last name'), 'Maximum 150 characters');
    await sheet.getByLabel('First name', { exact: true }).fill('Ann');
    await sheet.getByLabel('Last name', { exact: true }).fill('Lee');
    await sheet.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Your name was changed.' }).waitFor();
    await page.getByTestId('account-first-name').filter({ hasText: 'Ann' }).waitFor();
    await page.getByTestId('account-last-name').filter({ hasText: 'Lee' }).waitFor();
  });

  test('the username asks for the current password first, then shows the §5 Username messages', async () => {
    await page.getByRole('button', { name: 'Edit username', exact: true }).click();
    const sheet = page.getByRole('dialog', { name: 'Change Username' });
    await sheet.getByRole('button', { name: 'Continue' }).click();
    assert.equal(await errorOf(sheet, 'Current password'), 'This field is required');
    await sheet.getByLabel('Current password', { exact: true }).fill('Wrong12#pass');
    await sheet.getByRole('button', { name: 'Continue' }).click();
    await eventually(
      'the wrong-password message',
      async () => (await errorOf(sheet, 'Current password')) === 'Wrong Password. Please try again',
    );
    await sheet.getByLabel('Current password', { exact: true }).fill(PASSWORD);
    await sheet.getByRole('button', { name: 'Continue' }).click();
    const field = sheet.getByLabel('New username', { exact: true });
    await field.fill('a');
    await sheet.getByRole('button', { name: 'Save' }).click();
    assert.equal(await errorOf(sheet, 'New username'), 'Minimum 2 characters');
    await field.fill('ann lee');
    await sheet.getByRole('button', { name: 'Save' }).click();
    assert.equal(await errorOf(sheet, 'New username'), 'Please enter a valid username');
    await sheet.getByRole('button', { name: 'Close', exact: true }).click();
    await sheet.waitFor({ state: 'detached' });
  });

  test('changes the e-mail with the code mailed to the new address (the password token is reused)', async () => {
    await page.getByRole('button', { name: 'Edit email', exact: true }).click();
    const sheet = page.getByRole('dialog', { name: 'Change Email' });
    // Confirmed a moment ago: no password this time.
    const field = sheet.getByLabel('New email', { exact: true });
    await field.fill('not-an-email');
    await sheet.getByRole('button', { name: 'Send code' }).click();
    assert.equal(await errorOf(sheet, 'New email'), 'Please enter a valid email address');
    await field.fill(newEmail);
    await sheet.getByRole('button', { name: 'Send code' }).click();
    await sheet.getByRole('button', { name: 'Resend code' }).waitFor();
    const code = await codeFor(newEmail);
    await sheet.getByLabel('Confirmation code').fill(code);
    await sheet.getByRole('button', { name: 'Confirm' }).click();
    await sheet.waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: 'Your e-mail was changed.' }).waitFor();
    await page.getByTestId('account-email').filter({ hasText: newEmail }).waitFor();
    await page.reload();
    await page.getByTestId('account-email').filter({ hasText: newEmail }).waitFor();
  });

  test('changes the address after the §5 address messages', async () => {
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Change Address' }).click();
    await page.waitForURL('**/change-address');
    const fields = { Country: '', Province: 'Berlin', Street: 'S', House: '1234567890', City: 'Berlin 2', 'Zip Code': '' };
    for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole('button', { name: 'Save' }).click();
    assert.equal(await errorOf(page, 'Country'), 'This field is required');
    assert.equal(await errorOf(page, 'Street'), 'Minimum 2 characters');
    assert.equal(await errorOf(page, 'House'), 'Maximum 9 characters');
    assert.equal(await errorOf(page, 'City'), 'Incorrect input. Only letters allowed');
    assert.equal(await errorOf(page, 'Zip Code'), 'This field is required');
    const good = { Country: 'Germany', Province: 'Berlin', Street: 'Unter den Linden', House: '5', City: 'Berlin', 'Zip Code': '10117' };
    for (const [label, value] of Object.entries(good)) await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/account-info');
    await page.getByTestId('account-address').filter({ hasText: '5, Unter den Linden, Berlin, Germany, 10117' }).waitFor();
  });

  test('changes the password after the §5 password messages; the session carries on with new tokens', async () => {
    await page.goto('/change-password');
    const submit = page.getByRole('button', { name: 'Change Password' });
    await submit.click();
    for (const label of ['Current password', 'New password', 'Confirm new password']) {
      assert.equal(await errorOf(page, label), 'This field is required', label);
    }
    await page.getByLabel('Current password', { exact: true }).fill('Wrong12#pass');
    await page.getByLabel('New password', { exact: true }).fill('Ab1#');
    await submit.click();
    assert.equal(await errorOf(page, 'New password'), 'Minimum 8 characters');
    await page.getByLabel('New password', { exact: true }).fill(`Ab1#${'x'.repeat(29)}`);
    await submit.click();
    assert.equal(await errorOf(page, 'New password'), 'Maximum 32 characters');
    await page.getByLabel('New password', { exact: true }).fill('alllowercase1#');
    await submit.click();
    assert.equal(await errorOf(page, 'New password'), 'Wrong Password. Please try again');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password', { exact: true }).fill(`${NEW_PASSWORD}x`);
    await submit.click();
    assert.equal(await errorOf(page, 'Confirm new password'), 'Passwords do not match');
    await page.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
    await submit.click();
    await eventually(
      'the wrong current password',
      async () => (await errorOf(page, 'Current password')) === 'Wrong Password. Please try again',
    );

    const before = await storedLoginInfo(page);
    await page.getByLabel('Current password', { exact: true }).fill(PASSWORD);
    await submit.click();
    await page.waitForURL('**/dashboard/settings');
    await page.getByRole('status').filter({ hasText: 'Your password was changed.' }).waitFor();
    const after = await storedLoginInfo(page);
    assert.notEqual(after.accessToken, before.accessToken);
    assert.notEqual(after.refreshToken, before.refreshToken);
    // Still signed in with the new tokens.
    await page.goto('/account-info');
    await page.getByTestId('account-email').filter({ hasText: newEmail }).waitFor();
  });

  test('the events history lists the account events, newest first, and filters them', async () => {
    await page.goto('/events-history');
    const events = page.getByRole('list', { name: 'Events' });
    await events.waitFor();
    const texts = await events.getByRole('listitem').allInnerTexts();
    assert.ok(
      texts.some((text) => /Signed in|Sign(ed)?[ -]?up|Account created/i.test(text)),
      `a sign-in or sign-up event among: ${texts.join(' | ')}`,
    );
    for (const text of texts) assert.match(text, /[A-Z][a-z]{2} \d{1,2}, \d{4} · \d{2}:\d{2}/);
    assert.match(texts[0], /IP /);

    // The server's days are UTC days: today's UTC date keeps every event of this run.
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('From', { exact: true }).fill(today);
    await page.getByLabel('To', { exact: true }).fill(today);
    await events.getByRole('listitem').first().waitFor();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('To', { exact: true }).fill(yesterday);
    await page.getByText('The end date cannot be before the start date.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await events.waitFor();

    await page.getByLabel('Action', { exact: true }).selectOption({ label: 'Account deleted' });
    await page.getByText('No events match these filters.').waitFor();
  });

  test('a chosen time zone is kept on this device', async () => {
    await page.goto('/date-and-time');
    await page.getByRole('radio', { name: /^Automatic \(this device: .+\)$/ }).waitFor();
    await page.getByRole('radio', { name: 'Choose a time zone' }).check();
    await page.getByLabel('Search time zones').fill('tokyo');
    await page
      .getByRole('list', { name: 'Time zones' })
      .getByRole('radio', { name: /Asia\/Tokyo/ })
      .check();
    await page.getByTestId('shown-in').filter({ hasText: 'Dates are shown in Asia/Tokyo.' }).waitFor();
    // redux-persist writes the device's copy a moment after the screen changes: reload once it has.
    await page.waitForFunction(() => (localStorage.getItem('persist:evidentia') ?? '').includes('Asia/Tokyo'));
    await page.reload();
    await page.getByTestId('shown-in').filter({ hasText: 'Dates are shown in Asia/Tokyo.' }).waitFor();
    assert.equal(await page.getByRole('radio', { name: /Asia\/Tokyo/ }).isChecked(), true);
    await page.getByRole('radio', { name: /^Automatic/ }).check();
    await page.getByTestId('shown-in').filter({ hasNotText: 'Asia/Tokyo' }).waitFor();
  });
});
