// Browser journeys of saved cards (spec §2 "Payment-method list", "Add-card dialog",
// "Payment information / add-card flow", "Billing address sub-screen", "Address picker",
// "Promo code dialog"; §4 "Add-card flow"; §8 "Duplicate card", "Setup confirmation error").
// Everything goes through the screens in headless Chromium, with localstripe's Stripe.js
// stand-in (and our additions, deploy/local/localstripe-js-extras.js) as the card fields.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { homedir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { apiGet, eventually, launch, phone, signUp, uniqueUser } from './support.mjs';

const LOCALSTRIPE_URL = process.env.LOCALSTRIPE_URL ?? 'http://127.0.0.1:8420';
const OK_CARD = '4242424242424242';
const DECLINED_ON_SETUP = '4000000000000002';
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REFERRALS = path.join(process.env.CARGO_TARGET_DIR ?? path.join(homedir(), '.cache/evidentia/target'), 'debug/referrals');

/** A fresh promo code made with the operators' command: 'AAA AAA'. */
async function createPromoCode(amountCents) {
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const code = Array.from({ length: 6 }, () => letters[Math.floor(Math.random() * letters.length)]).join('');
  const masked = `${code.slice(0, 3)} ${code.slice(3)}`;
  await promisify(execFile)(REFERRALS, ['promo-code', 'create', '--code', masked, '--amount-cents', String(amountCents)], { cwd: REPO });
  return masked;
}

/** A localstripe object read with a secret key (it accepts any sk_ key). */
async function localstripeGet(path) {
  const response = await fetch(`${LOCALSTRIPE_URL}${path}`, { headers: { authorization: 'Bearer sk_test_e2e' } });
  if (!response.ok) throw new Error(`localstripe ${path}: ${response.status}`);
  return response.json();
}

/** Opens the add-card dialog from /payment-methods through its confirmation. */
async function openAddCard(page) {
  await page.goto('/payment-methods');
  await page.getByRole('button', { name: 'Add Payment Method' }).click();
  const confirm = page.getByRole('dialog', { name: 'Add Payment Method' });
  await confirm.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('dialog', { name: 'Add Credit Card' }).waitFor();
  await page.waitForURL(/[?&]add-payment=true/);
}

/** Types a card into the stand-in's three card Elements. */
async function typeCard(page, number) {
  await page.locator('[name=localstripe-number]').fill(number);
  await page.locator('[name=localstripe-expiry]').fill(`12${String((new Date().getFullYear() + 5) % 100)}`);
  await page.locator('[name=localstripe-cvc]').fill('123');
}

/** The billing address through the picker (Berlin, Germany) and the fields it leaves empty. */
async function chooseBillingAddress(page) {
  await page.getByRole('button', { name: 'Billing Address' }).click();
  const screen = page.getByRole('dialog', { name: 'Credit Card Billing Address' });
  await screen.getByRole('button', { name: /Find Your Address/ }).click();
  const picker = page.getByRole('dialog', { name: 'Type your Address' });
  await picker.getByRole('searchbox').fill('Berlin, Germany');
  await picker.getByRole('button', { name: /^Berlin, Germany/ }).first().click({ timeout: 30000 });
  await eventually('the country from the place', async () => (await screen.getByLabel('Country').inputValue()) === 'Germany');
  assert.equal(await screen.getByLabel('City').inputValue(), 'Berlin');
  assert.equal(await screen.getByLabel('Province').inputValue(), 'Berlin');
  assert.equal(await screen.getByLabel('Street').inputValue(), '');
  assert.equal(await screen.getByRole('button', { name: 'Save' }).isDisabled(), true);
  await screen.getByLabel('Street').fill('Unter den Linden');
  await screen.getByLabel('House').fill('5');
  await screen.getByLabel('Zip Code').fill('10117');
  await screen.getByRole('button', { name: 'Save' }).click();
  await screen.waitFor({ state: 'detached' });
}

async function fillPaymentInformation(page, number) {
  await page.getByLabel('First Name').fill('Ann');
  await page.getByLabel('Last Name').fill('Lee');
  await typeCard(page, number);
  await chooseBillingAddress(page);
}

describe('saved cards', () => {
  let browser;
  let context;
  let page;

  before(async () => {
    browser = await launch();
    context = await phone(browser);
    page = await context.newPage();
    await signUp(page, uniqueUser());
  });

  after(async () => {
    await browser?.close();
  });

  test('a card added with a billing address found by typing shows as the default', async () => {
    await openAddCard(page);
    await fillPaymentInformation(page, OK_CARD);
    assert.equal(await page.getByRole('button', { name: 'Billing Address' }).textContent(), '5, Unter den Linden, Berlin, Germany, 10117');
    await page.getByRole('button', { name: 'Add Card' }).click();
    await page.getByText('Card was added').waitFor({ timeout: 30000 });
    await page.getByRole('dialog', { name: 'Add Credit Card' }).waitFor({ state: 'detached' });
    assert.doesNotMatch(page.url(), /add-payment/);

    const row = page.getByRole('listitem', { name: 'Visa **** 4242' });
    await row.waitFor();
    await row.getByText('Default').waitFor();
    await row.getByText('For payments with Credit Card').waitFor();

    // The billing details went to Stripe with the country's ISO code.
    const { payment_methods: cards } = await apiGet(page, 'payments/payment-methods/get/');
    assert.equal(cards.length, 1);
    assert.equal(cards[0].default_method, true);
    const method = await localstripeGet(`/v1/payment_methods/${cards[0].id}`);
    assert.equal(method.billing_details.name, 'Ann Lee');
    assert.deepEqual(
      { country: method.billing_details.address.country, city: method.billing_details.address.city, postal: method.billing_details.address.postal_code },
      { country: 'DE', city: 'Berlin', postal: '10117' },
    );
  });

  test('each card field tells its own message under it, and Add Card waits for all three', async () => {
    await openAddCard(page);
    const dialog = page.getByRole('dialog', { name: 'Add Credit Card' });
    await page.getByLabel('First Name').fill('Ann');
    await page.getByLabel('Last Name').fill('Lee');
    await chooseBillingAddress(page);
    const fieldOf = (label) => dialog.locator('.card-field').filter({ has: page.getByText(label, { exact: true }) });
    await page.locator('[name=localstripe-number]').fill('4242');
    await page.locator('[name=localstripe-expiry]').fill('0120');
    await page.locator('[name=localstripe-cvc]').fill('12');
    await page.getByLabel('First Name').click();
    await fieldOf('Card number').getByRole('alert').filter({ hasText: 'Your card number is incomplete.' }).waitFor();
    await fieldOf('Expiry (MM/YY)').getByRole('alert').filter({ hasText: "Your card's expiration year is in the past." }).waitFor();
    await fieldOf('CVV').getByRole('alert').filter({ hasText: "Your card's security code is incomplete." }).waitFor();
    assert.equal(await page.locator('[name=localstripe-expiry]').inputValue(), '01 / 20');
    assert.equal(await dialog.getByRole('button', { name: 'Add Card' }).isDisabled(), true);
    // Fixing two of the three is not enough.
    await page.locator('[name=localstripe-number]').fill(OK_CARD);
    await page.locator('[name=localstripe-cvc]').fill('123');
    assert.equal(await fieldOf('Card number').getByRole('alert').count(), 0);
    assert.equal(await dialog.getByRole('button', { name: 'Add Card' }).isDisabled(), true);
    await page.locator('[name=localstripe-expiry]').fill(`12${String((new Date().getFullYear() + 5) % 100)}`);
    await eventually('Add Card enabled', async () => !(await dialog.getByRole('button', { name: 'Add Card' }).isDisabled()));
    assert.equal(await fieldOf('Expiry (MM/YY)').getByRole('alert').count(), 0);
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Leave' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  test('the same card again is a duplicate', async () => {
    await openAddCard(page);
    await fillPaymentInformation(page, OK_CARD);
    await page.getByRole('button', { name: 'Add Card' }).click();
    await page.getByText('Card ****4242 already exist. Please, add the new one.').waitFor({ timeout: 30000 });
    await page.getByRole('dialog', { name: 'Add Credit Card' }).getByText('Card already exist').waitFor();
    const { payment_methods: cards } = await apiGet(page, 'payments/payment-methods/get/');
    assert.equal(cards.length, 1);
  });

  test('a card declined on setup tells the provider message and is not saved', async () => {
    await openAddCard(page);
    await fillPaymentInformation(page, DECLINED_ON_SETUP);
    await page.getByRole('button', { name: 'Add Card' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your card was declined.' }).waitFor({ timeout: 30000 });
    await page.getByRole('dialog', { name: 'Add Credit Card' }).waitFor();
    const { payment_methods: cards } = await apiGet(page, 'payments/payment-methods/get/');
    assert.equal(cards.length, 1);

    // Leaving asks first.
    await page.getByRole('button', { name: 'Close' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave this page?' });
    await leave.getByText('Your progress and data will be lost.').waitFor();
    await leave.getByRole('button', { name: 'Leave' }).click();
    await page.getByRole('dialog', { name: 'Add Credit Card' }).waitFor({ state: 'detached' });
    assert.doesNotMatch(page.url(), /add-payment/);
  });

  test('the promo dialog applies only a complete code; a good one credits the wallet, then the card is added', async () => {
    const code = await createPromoCode(500);
    await page.goto('/payment-details-setup');
    await page.getByRole('heading', { name: 'Payment information' }).waitFor();
    await fillPaymentInformation(page, '5555555555554444');
    await page.getByRole('button', { name: 'Proceed without a Promo Code' }).waitFor();
    await page.getByRole('button', { name: 'Almost Done!' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enter Promo Code' });
    const apply = dialog.getByRole('button', { name: 'Apply Promo Code' });
    const input = dialog.getByLabel('Promo Code');
    assert.equal(await apply.isDisabled(), true);
    await input.pressSequentially('zz9 99');
    assert.equal(await input.inputValue(), 'ZZ9 99');
    assert.equal(await apply.isDisabled(), true);
    await input.pressSequentially('9');
    assert.equal(await input.inputValue(), 'ZZ9 999');
    assert.equal(await apply.isDisabled(), false);

    // An unknown code: the server's message on the field.
    await apply.click();
    await dialog.getByRole('alert').waitFor();
    assert.notEqual((await dialog.getByRole('alert').textContent()).trim(), '');

    const before = (await apiGet(page, 'payments/evidentia-wallet/get/')).balance;
    await input.fill('');
    await input.pressSequentially(code.toLowerCase());
    assert.equal(await input.inputValue(), code);
    await apply.click();
    const applied = page.getByRole('dialog', { name: '$5 Promo Applied' });
    await applied.getByText("Your credit card won't be charged until your Evidentia Wallet balance expires.").waitFor({ timeout: 30000 });
    // The credit reaches the wallet (from the referrals service's event) once.
    await eventually('the promo credit in the wallet', async () => (await apiGet(page, 'payments/evidentia-wallet/get/')).balance === before + 500);

    await applied.getByRole('button', { name: 'Proceed' }).click();
    await page.waitForURL('**/dashboard/home', { timeout: 30000 });
    await page.getByRole('status').getByText('Card was added').waitFor();
    const { payment_methods: cards } = await apiGet(page, 'payments/payment-methods/get/');
    assert.equal(cards.length, 2);
  });

  test('the places list the picker searches is kept for offline use after its first fetch', async () => {
    // A page the service worker controls, so the list's fetch goes through it.
    await page.goto('/payment-methods');
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await eventually('the service worker to control the page', () => page.evaluate(() => Boolean(navigator.serviceWorker.controller)));
    await openAddCard(page);
    await page.getByRole('button', { name: 'Billing Address' }).click();
    const screen = page.getByRole('dialog', { name: 'Credit Card Billing Address' });
    await screen.getByRole('button', { name: /Find Your Address/ }).click();
    const picker = page.getByRole('dialog', { name: 'Type your Address' });
    await picker.getByRole('searchbox').fill('Lyon');
    await picker.getByRole('button', { name: /^Lyon, France/ }).first().waitFor({ timeout: 30000 });
    const url = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).find((n) => n.includes('/assets/city-')));
    assert.ok(url, 'the list was fetched');
    await context.setOffline(true);
    const offline = await page.evaluate(async (u) => {
      const response = await fetch(u);
      const list = await response.json();
      return { ok: response.ok, count: list.length };
    }, url);
    await context.setOffline(false);
    assert.equal(offline.ok, true);
    assert.ok(offline.count > 100000, `the whole list is there offline (${offline.count} places)`);
  });
});
