// Browser journey of the information pages, as an anonymous visitor: /legal to the
// terms, the FAQ accordion, the contact-us validation messages, then a message that reaches the
// support address in the SMTP sink; signed in: Settings links, the prefilled e-mail, the
// walkthrough to Home. Headless Chromium through Envoy against the real stack.
/* global document -- page.evaluate bodies run in the browser. */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { eventually, launch, MAIL_DIR, phone, signUp, uniqueUser } from './support.mjs';

const SUPPORT_EMAIL = process.env.SUPPORT_EMAIL ?? 'support@evidentia.local';

/** The text of the newest mail in the sink to `to` that contains `needle`. */
async function mailTo(to, needle) {
  return eventually(`a mail to ${to} containing ${needle}`, async () => {
    const names = (await readdir(MAIL_DIR).catch(() => [])).filter((n) => n.endsWith('.eml')).sort().reverse();
    for (const name of names) {
      const text = await readFile(path.join(MAIL_DIR, name), 'utf8');
      if (text.includes(`To: ${to}`) && text.includes(needle)) return text;
    }
    return undefined;
  });
}

/** The error message under the field labelled `label`, or null. */
async function errorOf(page, label) {
  return page.getByLabel(label, { exact: true }).evaluate((input) => {
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

describe('information pages, anonymous', () => {
  let context;
  let page;

  before(async () => {
    context = await phone(browser);
    page = await context.newPage();
  });
  after(async () => context?.close());

  test('/legal leads to the Terms of Use', async () => {
    await page.goto('/legal');
    await page.getByRole('link', { name: 'Privacy Policy' }).waitFor();
    await page.getByRole('link', { name: 'Terms of Use' }).click();
    await page.waitForURL('**/legal/terms');
    await page.getByRole('heading', { level: 1, name: 'Terms of Use' }).waitFor();
    assert.match(await page.locator('main').innerText(), /SHA-256/);
  });

  test('the FAQ expands a question', async () => {
    await page.goto('/faq');
    const question = page.getByRole('button', { name: 'What is the CreditCard Wallet?' });
    assert.equal(await question.getAttribute('aria-expanded'), 'false');
    await question.click();
    assert.equal(await question.getAttribute('aria-expanded'), 'true');
    const answer = page.getByRole('region', { name: 'What is the CreditCard Wallet?' });
    await answer.waitFor();
    assert.match(await answer.innerText(), /below \$5\.00/);
  });

  test('/walkthrough is for signed-in users only', async () => {
    await page.goto('/walkthrough');
    await page.waitForURL((url) => url.pathname === '/');
  });

  test('contact us shows the validation messages for bad values', async () => {
    await page.goto('/contact-us');
    const send = page.getByRole('button', { name: 'Send' });
    await send.click();
    for (const label of ['Name', 'Email', 'Subject', 'Message']) {
      assert.equal(await errorOf(page, label), 'This field is required', label);
    }
    await page.getByLabel('Name', { exact: true }).fill('A');
    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByLabel('Subject', { exact: true }).fill('Hi');
    await page.getByLabel('Message', { exact: true }).fill('m'.repeat(2001));
    await send.click();
    assert.equal(await errorOf(page, 'Name'), 'Minimum 2 characters');
    assert.equal(await errorOf(page, 'Email'), 'Please enter a valid email address');
    assert.equal(await errorOf(page, 'Subject'), 'Minimum 3 characters');
    assert.equal(await errorOf(page, 'Message'), 'Maximum 2000 characters');
    await page.getByLabel('Name', { exact: true }).fill('N'.repeat(151));
    await page.getByLabel('Subject', { exact: true }).fill('S'.repeat(31));
    await send.click();
    assert.equal(await errorOf(page, 'Name'), 'Maximum 150 characters');
    assert.equal(await errorOf(page, 'Subject'), 'Maximum 30 characters');
  });

  test('a valid message is sent and reaches the support address', async () => {
    const subject = `Upload help ${Date.now().toString(36)}`;
    await page.getByLabel('Name', { exact: true }).fill('Ann Lee');
    await page.getByLabel('Email', { exact: true }).fill('ann-e2e@example.com');
    await page.getByLabel('Subject', { exact: true }).fill(subject);
    await page.getByLabel('Message', { exact: true }).fill('My video upload stopped at 40%. What should I do?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('status').filter({ hasText: 'Your message was sent. We will reply by e-mail.' }).waitFor();
    assert.equal(await page.getByLabel('Subject', { exact: true }).inputValue(), '');
    assert.equal(await page.getByLabel('Message', { exact: true }).inputValue(), '');
    assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'Ann Lee');
    const mail = await mailTo(SUPPORT_EMAIL, subject);
    assert.match(mail, /My video upload stopped at 40%/);
    assert.match(mail, /ann-e2e@example\.com/);
  });
});

describe('information pages, signed in', () => {
  const user = uniqueUser();
  let context;
  let page;

  before(async () => {
    context = await phone(browser);
    page = await context.newPage();
    await signUp(page, user);
  });
  after(async () => context?.close());

  test('Settings links to the information pages; the contact form knows the e-mail', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    const help = page.getByRole('navigation', { name: 'Help and legal' });
    for (const name of ['Legal', 'FAQ', 'Tech Support']) await help.getByRole('link', { name }).waitFor();
    await help.getByRole('link', { name: 'Contact Us' }).click();
    await page.waitForURL('**/contact-us');
    await eventually('the prefilled e-mail', async () => (await page.getByLabel('Email', { exact: true }).inputValue()) === user.email);
  });

  test('the walkthrough goes through its steps to Home', async () => {
    await page.goto('/walkthrough');
    for (const title of ['Capture evidence', 'Stored for your storage period', 'Share authenticated copies']) {
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.getByRole('button', { name: 'Next' }).click();
    }
    await page.getByRole('heading', { level: 1, name: 'CreditCard Wallet' }).waitFor();
    await page.getByRole('button', { name: 'Get Started' }).click();
    await page.waitForURL('**/dashboard/home');
  });
});
