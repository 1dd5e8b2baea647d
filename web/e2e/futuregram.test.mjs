// Browser journey of a futuregram (docs/decisions.md "Futuregram"): an owner captures a photo,
// saves a card and, on the capture screen, schedules a futuregram of it to a recipient with two
// executors, released half a minute ahead. One executor accepts from the link in the mail sink, the
// other declines and shows as declined to the owner. At the date the recipient's mail brings the
// view link: a signed-out browser sees the watermarked copy, and the number verifies. The test
// stack's view links expire in seconds (./dev test sets SHARING_FUTUREGRAM_VIEW_TTL_SECONDS): the
// expired link offers a fresh one by mail, which opens the copy again. Headless Chromium through
// Envoy against the real stack.
/* global document, window */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, eventually, launch, mailFor, newestMail, phone, saveCard, signUp, uniqueUser } from './support.mjs';

const OK_CARD = '4242424242424242';
const PLACE = { latitude: 48.8566, longitude: 2.3522 };
const VIEW_TTL_SECONDS = Number(process.env.SHARING_FUTUREGRAM_VIEW_TTL_SECONDS ?? '25');

/** The token after `marker` in a raw message (quoted-printable soft breaks undone). */
function tokenAfter(text, marker) {
  const plain = text.replace(/=\r?\n/g, '');
  const at = plain.indexOf(marker);
  assert.ok(at >= 0, `no ${marker} in the message`);
  return plain.slice(at + marker.length).match(/^[A-Za-z0-9]+/)[0];
}

/** A `datetime-local` value `seconds` from now, in the browser's time zone (UTC here). */
function localIn(seconds) {
  const at = new Date(Date.now() + seconds * 1000);
  const pad = (n) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('a futuregram', () => {
  const owner = uniqueUser();
  const stamp = Date.now();
  // Long: its row must wrap it and keep the remove button on the screen.
  const recipient = `heir-with-a-long-address-${stamp}@example.com`;
  const executor = `lawyer-${stamp}@example.com`;
  const declining = `friend-${stamp}@example.com`;
  let context;
  let page;

  before(async () => {
    context = await phone(browser);
    await context.grantPermissions(['geolocation', 'camera', 'microphone']);
    await context.setGeolocation(PLACE);
    page = await context.newPage();
    await signUp(page, owner);
    const card = await saveCard(page, OK_CARD);
    await api(page, 'POST', 'payments/payment-method/set-default/', { payment_method_id: card.id });
  });
  after(async () => context?.close());

  test('is scheduled, accepted and declined by executors, released, viewed, and its expired link refreshed', async () => {
    await page.goto('/evidence?mode=photo');
    await page.waitForURL(/situation=/);
    await page.getByTestId('capture-location').waitFor();
    await page.getByRole('button', { name: 'Take Photo' }).click();
    await eventually('the photo uploaded', async () => (await page.locator('[data-testid="upload-row"][data-status="fulfilled"]').count()) === 1, 60000);

    const panel = page.getByRole('region', { name: 'Futuregrams' });
    await panel.getByRole('button', { name: 'Schedule a futuregram' }).click();
    const form = panel.getByRole('region', { name: 'Schedule a futuregram' });
    await form.getByRole('form', { name: 'Add a recipient' }).getByLabel('Email').fill(recipient);
    await form.getByRole('button', { name: 'Add Recipient' }).click();
    await form.getByRole('list', { name: 'Recipients' }).getByText(recipient).waitFor();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the page is wider than the phone');
    for (const email of [executor, declining]) {
      await form.getByLabel("Executor's e-mail").fill(email);
      await form.getByRole('button', { name: 'Add', exact: true }).click();
      await form.getByRole('list', { name: 'Executors' }).getByText(email).waitFor();
    }
    // Long enough to answer the invitations first.
    await form.getByLabel('Release date and time').fill(localIn(30));
    const before = await newestMail();
    await form.getByRole('button', { name: 'Pay and Schedule' }).click();
    const card = panel.getByTestId('futuregram');
    await card.waitFor({ timeout: 20000 });
    assert.equal(await card.getAttribute('data-state'), 'pending');
    await card.getByText(/To be released on /).waitFor();

    // The executors' invitations, each with its two links.
    const invitation = await mailFor(executor, '/futuregram/executor/accept/', { after: before });
    const acceptToken = tokenAfter(invitation, '/futuregram/executor/accept/');
    const declineToken = tokenAfter(await mailFor(declining, '/futuregram/executor/decline/', { after: before }), '/futuregram/executor/decline/');

    const visitor = await phone(browser);
    const other = await visitor.newPage();
    await other.goto(`/futuregram/executor/accept/${acceptToken}`);
    await other.getByRole('heading', { name: 'Futuregram executor' }).waitFor();
    await other.getByLabel('Your e-mail address').fill(executor);
    await other.getByRole('button', { name: 'Accept' }).click();
    const standing = other.getByTestId('executor-standing');
    await standing.waitFor();
    assert.equal(await standing.getAttribute('data-state'), 'accepted');
    assert.match(await standing.innerText(), /You accepted\. .* will be released on /);

    await other.goto(`/futuregram/executor/decline/${declineToken}`);
    await other.getByLabel('Your e-mail address').fill(declining);
    await other.getByRole('button', { name: 'Decline' }).click();
    await other.getByTestId('executor-standing').filter({ hasText: 'You declined' }).waitFor();

    // The owner sees both answers.
    await page.reload();
    const executors = page.getByTestId('futuregram').getByTestId('futuregram-executor');
    await executors.filter({ hasText: `${declining} — Declined` }).waitFor();
    await executors.filter({ hasText: `${executor} — Accepted` }).waitFor();

    // The date passes: the recipient's mail brings the view link.
    const release = await eventually('the release mail', () => mailFor(recipient, '/futuregram/view/', { after: before }).catch(() => undefined), 90000);
    const viewToken = tokenAfter(release, '/futuregram/view/');
    await other.goto(`/futuregram/view/${viewToken}`);
    const item = other.getByTestId('shared-item');
    await item.waitFor();
    await eventually('the copy made', async () => (await item.getAttribute('data-state')) === 'ready', 120000);
    const number = await other.getByText(/^EVD-[A-Z0-9]{4}-[A-Z0-9]{4}$/).first().innerText();
    const verified = await api(page, 'GET', `sharing/verify/${number}/`);
    assert.equal(verified.transaction_number, number);
    await page.reload();
    await page.getByTestId('futuregram').filter({ hasText: 'Released on' }).waitFor();

    // The link expires; a fresh one is mailed to the recipient's own address.
    await other.waitForTimeout(VIEW_TTL_SECONDS * 1000);
    const beforeRefresh = await newestMail();
    await other.reload();
    await other.getByText('This link has expired. We can send a new one to your address.').waitFor();
    await other.getByRole('button', { name: 'Send me a new link' }).click();
    await other.getByText(/A new link was sent to h\*+@example\.com/).waitFor();
    const fresh = tokenAfter(await mailFor(recipient, '/futuregram/view/', { after: beforeRefresh }), '/futuregram/view/');
    assert.notEqual(fresh, viewToken);
    await other.goto(`/futuregram/view/${fresh}`);
    await other.getByTestId('shared-item').filter({ hasText: /Open/ }).first().waitFor({ timeout: 30000 });
    await visitor.close();
  });
});
