// Shared helpers of the browser journeys: Chromium from Debian through playwright-core, the
// stack behind Envoy, and the SMTP sink's directory for confirmation codes.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const BASE_URL = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080';
const here = path.dirname(fileURLToPath(import.meta.url));
export const MAIL_DIR = process.env.MAIL_DIR ?? path.resolve(here, '../../.dev/mail');
export const PASSWORD = 'Secret12#';

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
      // The capture journeys: a fake camera and microphone, allowed without a prompt.
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
    ],
  });
}

/** A phone-width context. */
export async function phone(browser) {
  return browser.newContext({ baseURL: BASE_URL, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
}

/** Polls `check` until it returns a value, or fails after `timeoutMs`. */
export async function eventually(what, check, timeoutMs = 15000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The 6-digit code of the newest message to `email` in the SMTP sink; with `after` (a message's
 * file name, see `newestMail`), only of a message that arrived after that one.
 */
export async function codeFor(email, { after = '' } = {}) {
  return eventually(`the confirmation e-mail to ${email}`, async () => {
    const names = (await readdir(MAIL_DIR).catch(() => [])).filter((n) => n.endsWith('.eml')).sort().reverse();
    for (const name of names) {
      // Names sort by arrival: the rest are older still.
      if (name <= after) break;
      const text = await readFile(path.join(MAIL_DIR, name), 'utf8');
      if (!text.includes(`To: ${email}`)) continue;
      const match = /confirmation code is (\d{6})/.exec(text);
      if (match) return match[1];
    }
    return undefined;
  });
}

export function uniqueUser() {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  // Random digits: users made in the same millisecond must not share a phone number.
  const digits = `5${Array.from({ length: 9 }, () => Math.floor(Math.random() * 10)).join('')}`;
  return { username: `e${tag}`.slice(0, 20), email: `e2e-${tag}@example.com`, phone: digits };
}

/** Signs up through the UI, skips the onboarding steps and waits for the home screen. */
export async function signUp(page, user) {
  await page.goto('/');
  await page.getByRole('link', { name: 'Sign Up' }).click();
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Country code').selectOption('+1');
  await page.getByLabel('Phone number').fill(user.phone);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  const code = await codeFor(user.email);
  await page.getByLabel('Confirmation code').fill(code);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await skipOnboarding(page);
  await page.getByTestId('username').filter({ hasText: user.username }).waitFor();
}

/** After sign-up: skips the walkthrough and the payment details setup, and waits for Home. */
export async function skipOnboarding(page) {
  await page.waitForURL('**/walkthrough');
  await page.getByRole('button', { name: 'Skip' }).click();
  await page.waitForURL('**/payment-details-setup');
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await page.waitForURL('**/dashboard/home');
}

/** The persisted session as the app stores it. */
export async function storedLoginInfo(page) {
  return page.evaluate(() => {
    const root = JSON.parse(localStorage.getItem('persist:evidentia') ?? '{}');
    return root.loginInfo ? JSON.parse(root.loginInfo) : null;
  });
}

/** The signed-in page's access token. */
export async function accessToken(page) {
  const info = await storedLoginInfo(page);
  return info?.accessToken;
}

/** GET an API path with the page's session; the parsed JSON body. */
export async function apiGet(page, path) {
  const token = await accessToken(page);
  const response = await fetch(`${BASE_URL}/api/${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

// --- organization: the SMS sink of the local stack ---
// One `<time>-<id>.txt` per message (names sort by time; a message appears whole, renamed from a
// dot-name): the line `To: +15551234567`, a blank line, the body.
export const SMS_DIR = process.env.SMS_DIR ?? path.resolve(here, '../../.dev/sms');

/** The newest SMS body to `to` (E.164, e.g. `+15551234567`) that contains `needle`. */
export async function smsFor(to, needle = '') {
  return eventually(`an SMS to ${to}${needle ? ` containing ${needle}` : ''}`, async () => {
    const names = (await readdir(SMS_DIR).catch(() => []))
      .filter((n) => n.endsWith('.txt') && !n.startsWith('.'))
      .sort()
      .reverse();
    for (const name of names) {
      const text = await readFile(path.join(SMS_DIR, name), 'utf8');
      const message = /^To: (\S+)\r?\n\r?\n([\s\S]*)$/.exec(text);
      if (message && message[1] === to && message[2].includes(needle)) return message[2];
    }
    return undefined;
  });
}

/** The 6-digit code of the newest SMS to `to` that carries one. */
export async function smsCodeFor(to) {
  const body = await smsFor(to, 'confirmation code is ');
  return /confirmation code is (\d{6})/.exec(body)[1];
}
// --- end organization ---

// --- recovery: telling a new message from an older one to the same address ---
/** The file name of the newest message in the SMTP sink ('' when there is none). */
export async function newestMail() {
  const names = (await readdir(MAIL_DIR).catch(() => [])).filter((n) => n.endsWith('.eml')).sort();
  return names.at(-1) ?? '';
}

/** The text of the newest message to `email` containing `needle`, arrived after `after` (see `codeFor`). */
export async function mailFor(email, needle, { after = '' } = {}) {
  return eventually(`an e-mail to ${email} containing ${needle}`, async () => {
    const names = (await readdir(MAIL_DIR).catch(() => []))
      .filter((n) => n.endsWith('.eml'))
      .sort()
      .reverse();
    for (const name of names) {
      if (name <= after) break;
      const text = await readFile(path.join(MAIL_DIR, name), 'utf8');
      if (text.includes(`To: ${email}`) && text.includes(needle)) return text;
    }
    return undefined;
  });
}
// --- end recovery ---

// --- payments: the API with the page's session, and cards saved through localstripe ---
export const LOCALSTRIPE_URL = process.env.LOCALSTRIPE_URL ?? 'http://127.0.0.1:8420';

/** Calls the API with the page's session; the parsed JSON body (or null for an empty one). */
export async function api(page, method, path, body, headers = {}) {
  const { accessToken } = await storedLoginInfo(page);
  const response = await fetch(`${BASE_URL}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${accessToken}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** A form POST to localstripe with a secret key (it accepts any sk_ key). */
export async function localstripe(path, params) {
  const response = await fetch(`${LOCALSTRIPE_URL}${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk_test_e2e', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`localstripe ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** Saves a card the way the add-card flow does (spec §4 steps 1, 3, 5, 6), without its screens. */
export async function saveCard(page, number) {
  const method = await localstripe('/v1/payment_methods', {
    type: 'card',
    'card[number]': number,
    'card[exp_month]': '12',
    'card[exp_year]': String(new Date().getFullYear() + 5),
    'card[cvc]': '123',
  });
  const { stripe_customer_id: customer } = await api(page, 'POST', 'payments/stripe-customer/create/');
  await api(page, 'POST', 'payments/payment-method/register/', { payment_method_id: method.id });
  const { client_secret: secret } = await api(page, 'POST', 'payments/stripe-setup-intent/create/', { stripe_customer_id: customer });
  await localstripe(`/v1/setup_intents/${secret.split('_secret_')[0]}/confirm`, { payment_method: method.id, client_secret: secret });
  return eventually('the card in the saved list', async () => {
    const { payment_methods: cards } = await api(page, 'GET', 'payments/payment-methods/get/');
    return cards.find((card) => card.id === method.id);
  });
}

