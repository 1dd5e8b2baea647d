// Browser journey of the spec §5 validation rules in the real app, each message word for
// word for a bad value: /sign-up (e-mail, username, password, the phone number's blocked keys and
// paste, its length after the 500 ms debounce, the country code list), /sign-up-organization (the
// organization name, short text), the e-mail confirmation code (a wrong code highlights the
// field), /change-address (the address messages e2e/account.test.mjs leaves out, and the postal
// pattern of a Canadian zip code, which the server holds to as well), /log-in (the password with
// the required rule only), and the server's answer to a country code the browser cannot send.
// /contact-us is in e2e/info.test.mjs.
// Headless Chromium through Envoy against the real stack.
/* global document -- page.evaluate bodies run in the browser. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { accessToken, BASE_URL, codeFor, eventually, launch, PASSWORD, phone, skipOnboarding, uniqueUser } from './support.mjs';

/** The error message under the field labelled exactly `label`, or null. */
async function errorOf(scope, label) {
  return scope.getByLabel(label, { exact: true }).evaluate((input) => {
    const id = input.getAttribute('aria-describedby');
    return id ? (document.getElementById(id)?.textContent ?? null) : null;
  });
}

/** The phone field's message (its country code and number share one). */
async function phoneError(page) {
  return page
    .getByLabel('Phone number', { exact: true })
    .evaluate((input) => input.closest('.field')?.querySelector('.field__error')?.textContent ?? null);
}

/** Waits until `read()` gives `expected`; the failure names the last value read. */
async function expectMessage(what, read, expected) {
  let last;
  try {
    await eventually(
      `${what} to read ${JSON.stringify(expected)}`,
      async () => {
        last = await read();
        return last === expected;
      },
      5000,
    );
  } catch {
    assert.equal(last, expected, what);
  }
}

const fieldMessage = (scope, label, expected) => expectMessage(label, () => errorOf(scope, label), expected);

/** Sends a JSON body to an API path (with `token`, signed in); the status and the field errors by field name. */
async function apiSend(method, path, body, token) {
  const response = await fetch(`${BASE_URL}/api/${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = await response.json().catch(() => ({}));
  const fields = Object.fromEntries((json.errors ?? []).filter((e) => e.field).map((e) => [e.field, e.message]));
  return { status: response.status, fields };
}

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('§5 validation in the browser', () => {
  const user = uniqueUser();
  let context;
  let page;

  before(async () => {
    context = await phone(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
    page = await context.newPage();
  });
  after(async () => context?.close());

  test('sign up: the e-mail, username and password messages', async () => {
    await page.goto('/sign-up');
    await page.getByRole('heading', { name: 'Sign Up' }).waitFor();
    const submit = page.getByRole('button', { name: 'Continue' });
    await submit.click();
    for (const label of ['Username', 'Email', 'Password']) await fieldMessage(page, label, 'This field is required');
    await expectMessage('the phone number', () => phoneError(page), 'This field is required');

    const email = page.getByLabel('Email', { exact: true });
    await email.fill('not-an-email');
    await fieldMessage(page, 'Email', 'Please enter a valid email address');
    await email.fill(`${'a'.repeat(139)}@example.com`);
    await fieldMessage(page, 'Email', 'Maximum 150 characters');
    await email.fill(user.email);
    await fieldMessage(page, 'Email', null);

    const username = page.getByLabel('Username', { exact: true });
    await username.fill('ann lee');
    await fieldMessage(page, 'Username', 'Please enter a valid username');
    await username.fill('a');
    await fieldMessage(page, 'Username', 'Minimum 2 characters');
    // At most 20 characters: the 21st typed is not taken.
    await username.fill('');
    await username.pressSequentially('u'.repeat(21));
    assert.equal(await username.inputValue(), 'u'.repeat(20));
    await username.fill(user.username);
    await fieldMessage(page, 'Username', null);

    const password = page.getByLabel('Password', { exact: true });
    await password.fill('Ab1#');
    await fieldMessage(page, 'Password', 'Minimum 8 characters');
    await password.fill(`Ab1#${'x'.repeat(29)}`);
    await fieldMessage(page, 'Password', 'Maximum 32 characters');
    await password.fill('alllowercase1#');
    await fieldMessage(page, 'Password', 'Wrong Password. Please try again');
    await password.fill(PASSWORD);
    await fieldMessage(page, 'Password', null);
  });

  test('sign up: the phone number takes digits only, blocks e, E, +, - and paste, and wants 9 to 11 digits', async () => {
    const number = page.getByLabel('Phone number', { exact: true });
    await number.fill('');
    await number.pressSequentially('12345');
    for (const key of ['e', 'E', '+', '-']) {
      await number.press(key);
      assert.equal(await number.inputValue(), '12345', `after typing ${key}`);
    }

    // Pasting works in a text field of the same page, and not in the phone number.
    await page.evaluate(() => navigator.clipboard.writeText('987654321'));
    const username = page.getByLabel('Username', { exact: true });
    await username.fill('');
    await username.press('ControlOrMeta+V');
    assert.equal(await username.inputValue(), '987654321', 'the clipboard pastes into a text field');
    await username.fill(user.username);
    await number.press('End');
    await number.press('ControlOrMeta+V');
    assert.equal(await number.inputValue(), '12345', 'nothing pasted into the phone number');

    await page.getByRole('button', { name: 'Continue' }).click();
    await expectMessage('the phone number', () => phoneError(page), 'Minimum 9 digits');
    // After a submit the message follows the number once the typing pauses (500 ms debounce).
    // Typing goes on at the end of the number (the field lost the focus to Continue).
    await number.press('End');
    await number.pressSequentially('6789');
    await expectMessage('the phone number', () => phoneError(page), null);
    await number.pressSequentially('012');
    await expectMessage('the phone number', () => phoneError(page), 'Maximum 11 digits');
  });

  test('sign up: the country code is chosen from the known list of "+" and 1 to 5 digits', async () => {
    const codes = await page
      .getByLabel('Country code', { exact: true })
      .evaluate((select) => [...select.querySelectorAll('option')].map((option) => option.value));
    assert.ok(codes.length > 200, `${codes.length} country codes`);
    // A code several countries share is the bare code for its main country, the code and the
    // country for the others ('+1 CA'); only the code is sent.
    for (const code of codes) assert.match(code, /^\+\d{1,5}( [A-Z]{2})?$/);
    for (const code of ['+1', '+44', '+49', '+91']) assert.ok(codes.includes(code), code);
    const select = page.getByLabel('Country code', { exact: true });
    await select.selectOption('+1');
    assert.equal(await select.evaluate((el) => el.selectedOptions[0].textContent), 'United States of America (+1)');
    // Nothing else can be chosen; the server's answer to an unknown code is checked below.
    await assert.rejects(page.getByLabel('Country code', { exact: true }).selectOption('+999', { timeout: 1000 }));
  });

  test('sign up as an organization: the organization name is short text, 3 to 30 characters', async () => {
    await page.goto('/sign-up-organization');
    await page.getByRole('heading', { name: 'Sign Up as an Organization' }).waitFor();
    const name = page.getByLabel('Organization name', { exact: true });
    await page.getByRole('button', { name: 'Continue' }).click();
    await fieldMessage(page, 'Organization name', 'This field is required');
    await name.fill('Ab');
    await fieldMessage(page, 'Organization name', 'Minimum 3 characters');
    await name.fill('A'.repeat(31));
    await fieldMessage(page, 'Organization name', 'Maximum 30 characters');
    await name.fill('Acme Limited');
    await fieldMessage(page, 'Organization name', null);
  });

  test('a wrong confirmation code highlights the field with the server message; the right one signs up', async () => {
    await page.goto('/sign-up');
    await page.getByLabel('Username', { exact: true }).fill(user.username);
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByLabel('Country code', { exact: true }).selectOption('+1');
    await page.getByLabel('Phone number', { exact: true }).fill(user.phone);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    const code = await codeFor(user.email);
    const field = page.getByLabel('Confirmation code', { exact: true });
    await field.fill('12ab3x');
    // A mask of 6 digits: the letters are dropped, the digits shown as '999 999'.
    assert.equal(await field.inputValue(), '123');
    assert.equal(await page.getByRole('button', { name: 'Confirm' }).isDisabled(), true);
    const wrong = code === '000000' ? '111111' : '000000';
    await field.fill(wrong);
    assert.equal(await field.inputValue(), `${wrong.slice(0, 3)} ${wrong.slice(3)}`);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('The confirmation code is incorrect.', { exact: true }).waitFor();
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.equal(await field.evaluate((input) => input.closest('.field')?.classList.contains('field--error')), true);
    await field.fill(code);
    assert.equal(await field.getAttribute('aria-invalid'), 'false');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await skipOnboarding(page);
  });

  test('change address: the address messages, and a Canadian zip code typed through its postal pattern', async () => {
    await page.goto('/change-address');
    await page.getByRole('heading', { name: 'Change Address' }).waitFor();
    const fill = async (values) => {
      for (const [label, value] of Object.entries(values)) await page.getByLabel(label, { exact: true }).fill(value);
    };
    const save = page.getByRole('button', { name: 'Save' });
    await fill({
      Country: 'Fr4nce',
      Province: 'P'.repeat(31),
      Street: 'S'.repeat(51),
      House: '',
      'Unit/Suite': '1234567890',
      City: 'B',
      'Zip Code': '1234567890',
    });
    await save.click();
    await fieldMessage(page, 'Country', 'Incorrect input. Only letters allowed');
    await fieldMessage(page, 'Province', 'Maximum 30 characters');
    await fieldMessage(page, 'Street', 'Maximum 50 characters');
    await fieldMessage(page, 'House', 'This field is required');
    await fieldMessage(page, 'Unit/Suite', 'Maximum 9 characters');
    await fieldMessage(page, 'City', 'Minimum 2 characters');
    await fieldMessage(page, 'Zip Code', 'Maximum 9 characters');
    await fill({ Country: 'C'.repeat(51), Province: 'O', City: 'Ottawa 1' });
    await fieldMessage(page, 'Country', 'Maximum 50 characters');
    await fieldMessage(page, 'Province', 'Minimum 2 characters');
    await fieldMessage(page, 'City', 'Incorrect input. Only letters allowed');
    await fill({ Country: 'C', Province: 'Ontario 2' });
    await fieldMessage(page, 'Country', 'Minimum 2 characters');
    await fieldMessage(page, 'Province', 'Incorrect input. Only letters allowed');

    // spec §5 Postal patterns: Canada's zip codes are 'xxx xxx' (docs/decisions.md "Postal patterns").
    await fill({
      Country: 'Canada',
      Province: 'Ontario',
      Street: 'Sussex Drive',
      House: '24',
      'Unit/Suite': '',
      City: 'Ottawa',
      'Zip Code': '12345',
    });
    await save.click();
    const zip = page.getByLabel('Zip Code', { exact: true });
    await fieldMessage(page, 'Zip Code', 'Invalid zip code format');
    assert.equal(await zip.getAttribute('maxlength'), '7');
    await zip.fill('');
    await fieldMessage(page, 'Zip Code', 'This field is required');
    // Typed as a user would: lower case and a dash are turned into the pattern.
    await zip.pressSequentially('k1a-0a');
    assert.equal(await zip.inputValue(), 'K1A 0A');
    await fieldMessage(page, 'Zip Code', 'Invalid zip code format');
    await zip.press('End');
    await zip.pressSequentially('1');
    assert.equal(await zip.inputValue(), 'K1A 0A1');
    await fieldMessage(page, 'Zip Code', null);
    await save.click();
    await page.waitForURL('**/account-info');
    await page.getByTestId('account-address').filter({ hasText: '24, Sussex Drive, Ontario, Canada, K1A 0A1' }).waitFor();
  });

  test('the server refuses a Canadian zip code outside its postal pattern too', async () => {
    const address = { country: 'Canada', apartment_number: '', province: 'Ontario', street: 'Sussex Drive', house: '24', city: 'Ottawa' };
    const token = await accessToken(page);
    for (const zip of ['K1A0A1', 'K1A 0A', 'K1A-0A1']) {
      const refused = await apiSend('PATCH', 'accounts/address/change/', { ...address, zip_code: zip }, token);
      assert.equal(refused.status, 400, zip);
      assert.deepEqual(refused.fields, { zip_code: 'Invalid zip code format' }, zip);
    }
    const kept = await apiSend('PATCH', 'accounts/address/change/', { ...address, zip_code: 'K1A 0A1' }, token);
    assert.equal(kept.status, 204);
  });

  test('log in: the password has the required rule only', async () => {
    const anonymous = await phone(browser);
    try {
      const visitor = await anonymous.newPage();
      await visitor.goto('/log-in');
      const submit = visitor.getByRole('button', { name: 'Log In' });
      await submit.click();
      await fieldMessage(visitor, 'Username or Email', 'This field is required');
      await fieldMessage(visitor, 'Password', 'This field is required');
      // 'ab' breaks every sign-up password rule but is sent: the answer is the server's.
      await visitor.getByLabel('Username or Email', { exact: true }).fill(user.username);
      await visitor.getByLabel('Password', { exact: true }).fill('ab');
      await submit.click();
      await fieldMessage(visitor, 'Password', 'Wrong Password. Please try again');
    } finally {
      await anonymous.close();
    }
  });
});

describe('§5 validation on the server', () => {
  test('refuses what the browser cannot send, with the same messages: an unknown country code', async () => {
    const unknownCode = await apiSend('POST', 'accounts/email-username-phone-number/verify/', {
      phone_number: { country_code: '+999', national_number: '4155550100' },
    });
    assert.equal(unknownCode.status, 400);
    assert.deepEqual(unknownCode.fields, { phone_number: 'Invalid country code' });
    const tooLong = await apiSend('POST', 'accounts/email-username-phone-number/verify/', {
      phone_number: { country_code: '+123456', national_number: '4155550100' },
    });
    assert.deepEqual(tooLong.fields, { phone_number: 'Invalid country code' });
  });

  test('and the same messages as the browser for the other sign-up fields', async () => {
    const bad = await apiSend('POST', 'accounts/email-username-phone-number/verify/', {
      email: 'not-an-email',
      username: 'ann lee',
      phone_number: { country_code: '+1', national_number: '12345' },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.fields, {
      email: 'Please enter a valid email address',
      username: 'Please enter a valid username',
      phone_number: 'Minimum 9 digits',
    });
  });
});
