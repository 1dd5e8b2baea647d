// Browser journey of sharing (spec §2 share screens, 'Watermark banner', media viewers, §3 Login
// state accessFolderToken, §6 copy types): an owner signs up, captures
// a photo and a video (Chromium's fake camera), saves a card at localstripe and creates the
// CreditCard Wallet, shares both files as an Authenticated Copy to an e-mail address and pays from
// the wallet. A second, signed-out browser context opens the link from the mail sink, confirms the
// code from the mail sink, sees both copies under the watermark banner, plays the video and
// downloads the evidence packet of the copies, which its own verify.sh checks offline; the
// public verification page confirms the transaction number and recognises the downloaded photo
// copy by its hash alone. Owner and recipient exchange messages, each seeing the other's within
// one 30-second poll. The owner revokes the share and the recipient's access is refused.
// Headless Chromium through Envoy against the real stack.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { api, eventually, launch, MAIL_DIR, newestMail, phone, saveCard, signUp, storedLoginInfo, uniqueUser } from './support.mjs';

const run = promisify(execFile);
const OK_CARD = '4242424242424242';
const PLACE = { latitude: 48.8566, longitude: 2.3522 };
const ACCESS_LINK = /\/get-access-email\/[^\s"'<>/]+\/email\/[^\s"'<>/]+/;
const TRANSACTION_NUMBER = /^EVD-[A-Z0-9]{4}-[A-Z0-9]{4}$/;
const ACCESS_ENDED = 'Your access has ended. Open the link from your message again.';
const LINK_INVALID = 'This link is no longer valid.';
// Copies are made after payment (images re-encoded, the video transcoded with the banner).
const COPIES_TIMEOUT_MS = 180000;

const balanceOf = async (page) => (await api(page, 'GET', 'payments/evidentia-wallet/get/')).balance;

/** Creates the CreditCard Wallet with $25 from the stored-account screen and waits for the credit. */
async function createWallet(page) {
  await page.goto('/stored-account');
  await page.getByRole('button', { name: 'Create CreditCard Wallet' }).click();
  const form = page.getByRole('dialog', { name: 'Create CreditCard Wallet' });
  await form.getByRole('radio', { name: /4242/ }).check();
  await form.getByRole('button', { name: '$25' }).click();
  for (const box of await form.getByRole('checkbox').all()) await box.check();
  await form.getByRole('button', { name: 'Transfer Money and Create CreditCard Wallet' }).click();
  await page.waitForURL('**/wallet-congratulations', { timeout: 30000 });
  await eventually('the $25 credited by the webhook', async () => (await balanceOf(page)) >= 2500, 30000);
}

async function waitUploaded(page, count) {
  await eventually(`${count} uploaded rows`, async () => (await page.locator('[data-testid="upload-row"][data-status="fulfilled"]').count()) === count, 60000);
}

/** Captures a photo and a 2-second video into one new folder; the folder, once both are verified. */
async function captureTwo(page) {
  await page.goto('/evidence');
  await page.waitForURL(/situation=/);
  await page.getByTestId('capture-location').waitFor();
  await page.getByRole('button', { name: 'Take Photo' }).click();
  await waitUploaded(page, 1);
  await page.getByRole('tab', { name: 'Video' }).click();
  await page.getByRole('button', { name: 'Start Recording' }).click();
  await page.getByRole('timer').filter({ hasText: '00:00:02' }).waitFor();
  await page.getByRole('button', { name: 'Stop Recording' }).click();
  await waitUploaded(page, 2);
  const { folders } = await api(page, 'GET', 'evidence/folders/');
  assert.equal(folders.length, 1);
  const folder = folders[0];
  const items = await eventually(
    'both files verified',
    async () => {
      const { items: list } = await api(page, 'GET', `evidence/folders/${folder.id}/items/`);
      return list.length === 2 && list.every((i) => i.status === 'verified') ? list : undefined;
    },
    60000,
  );
  return { folder, items };
}

/** An e-mail's text: quoted-printable soft line breaks joined and escapes decoded, or a base64 body decoded. */
function mailText(raw) {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).trim();
  if (/^Content-Transfer-Encoding:\s*base64/im.test(headers)) return `${headers}\n\n${Buffer.from(body, 'base64').toString('utf8')}`;
  if (/^Content-Transfer-Encoding:\s*quoted-printable/im.test(headers)) {
    const decoded = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
    return `${headers}\n\n${decoded}`;
  }
  return raw;
}

/** The decoded text of the newest mail to `to` that arrived after `after` and matches `pattern`. */
async function mailMatching(to, pattern, { after: afterName = '', timeoutMs = 30000 } = {}) {
  return eventually(
    `a mail to ${to} matching ${pattern}`,
    async () => {
      const names = (await readdir(MAIL_DIR).catch(() => []))
        .filter((n) => n.endsWith('.eml'))
        .sort()
        .reverse();
      for (const name of names) {
        if (name <= afterName) break;
        const text = mailText(await readFile(path.join(MAIL_DIR, name), 'utf8'));
        if (text.includes(`To: ${to}`) && pattern.test(text)) return text;
      }
      return undefined;
    },
    timeoutMs,
  );
}

/** The 6-digit code of a code mail ('... code is 123456', or written '123 456'; else the body's one 6-digit number). */
function codeIn(text) {
  const body = text.slice(Math.max(0, text.search(/\r?\n\r?\n/)));
  const match = /code(?: is)?:?\s*(\d{3}) ?(\d{3})\b/i.exec(body) ?? /(?<![\d-])(\d{3}) ?(\d{3})(?![\d-])/.exec(body);
  assert.ok(match, `no 6-digit code in:\n${text}`);
  return `${match[1]}${match[2]}`;
}

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('sharing an authenticated copy', () => {
  const owner = uniqueUser();
  const recipient = `share-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
  let ownerContext;
  let ownerPage;
  let recipientContext;
  let recipientPage;
  let folder;
  let transactionNumber;
  let accessPath;
  let photoCopy;

  before(async () => {
    ownerContext = await phone(browser);
    await ownerContext.grantPermissions(['geolocation', 'camera', 'microphone']);
    await ownerContext.setGeolocation(PLACE);
    ownerPage = await ownerContext.newPage();
    await signUp(ownerPage, owner);
    ({ folder } = await captureTwo(ownerPage));
    await saveCard(ownerPage, OK_CARD);
    await createWallet(ownerPage);
    // The recipient is someone else, signed out, in a browser of their own.
    recipientContext = await phone(browser);
    recipientPage = await recipientContext.newPage();
  });
  after(async () => {
    await recipientContext?.close();
    await ownerContext?.close();
  });

  test('the owner shares both files as an Authenticated Copy to an e-mail address and pays from the wallet', async () => {
    const page = ownerPage;
    await page.goto(`/folder-view?folderId=${folder.id}`);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.waitForURL(`**/share-files/${folder.id}`);
    const whole = page.getByRole('radio', { name: /Whole folder/ });
    await whole.waitFor();
    assert.equal(await whole.isChecked(), true, 'the whole folder is shared by default');
    await page.getByText('2 files', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL(`**/type-of-copy/${folder.id}`);
    await page.getByRole('radio', { name: /^Authenticated Copy/ }).check();
    // A new account has no first or last name: the copy is generated for the username.
    await page.getByTestId('generated-for').filter({ hasText: `Generated for ${owner.username}` }).waitFor();
    const preview = page.getByRole('region', { name: 'Watermark preview' });
    await preview.getByText('Authenticated Copy', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL(`**/who-you-want-to-share/${folder.id}`);
    await page.getByRole('button', { name: 'Add Recipient' }).click();
    await page.getByText('This field is required').waitFor();
    await page.getByLabel('Email').fill('not-an-address');
    await page.getByRole('button', { name: 'Add Recipient' }).click();
    await page.getByText('Please enter a valid email address').waitFor();
    await page.getByLabel('Email').fill(recipient);
    await page.getByRole('button', { name: 'Add Recipient' }).click();
    await page.getByRole('button', { name: `Remove ${recipient}` }).waitFor();
    const price = await api(page, 'POST', 'payments/sharing-price/calculate/', { copy_type: 'authenticated', recipients: 1 });
    await page.getByTestId('share-price-wallet').filter({ hasText: `$${(price.wallet_total / 100).toFixed(2)}` }).waitFor();
    await page.getByRole('button', { name: 'Continue to Checkout' }).click();

    await page.waitForURL('**/checkout?kind=sharing**');
    const pay = page.getByRole('button', { name: `Pay $${(price.wallet_total / 100).toFixed(2)}` });
    await pay.waitFor();
    assert.equal(await page.getByRole('radio', { name: /CreditCard Wallet/ }).isChecked(), true, 'the wallet pays by default');
    const balance = await balanceOf(page);
    const lastMail = await newestMail();
    await pay.click();

    await page.waitForURL('**/share-success?**', { timeout: 30000 });
    const number = page.getByTestId('recipient-transaction-number');
    await number.waitFor();
    transactionNumber = (await number.textContent()).trim();
    assert.match(transactionNumber, TRANSACTION_NUMBER);
    await page.getByText(recipient, { exact: true }).waitFor();
    assert.equal(await balanceOf(page), balance - price.wallet_total, 'the wallet paid the wallet total');

    const mail = await mailMatching(recipient, ACCESS_LINK, { after: lastMail });
    accessPath = ACCESS_LINK.exec(mail)[0];

    // The folder lists the share with its recipient and transaction number.
    await page.getByRole('link', { name: 'Back to the Folder' }).click();
    await page.waitForURL(`**/folder-view?folderId=${folder.id}`);
    const share = page.getByTestId('share');
    await share.getByTestId('recipient-transaction-number').filter({ hasText: transactionNumber }).waitFor();
    await share.getByText('Authenticated Copy', { exact: true }).waitFor();
  });

  test('the recipient opens the link, confirms the code from the mail and sees both copies under the watermark banner', async () => {
    assert.ok(accessPath, 'the link of the mail');
    const page = recipientPage;
    await page.goto(accessPath);
    const before = await newestMail();
    await page.getByRole('button', { name: 'Send Code' }).click();
    const sentTo = page.getByTestId('code-sent-to');
    await sentTo.waitFor();
    assert.match(await sentTo.textContent(), /@example\.com$/);
    const code = codeIn(await mailMatching(recipient, /code/i, { after: before }));
    await page.getByLabel('Confirmation code').fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL('**/get-access-confirm**');
    // redux-persist writes a moment after the screen changes.
    const stored = await eventually('the folder token kept as accessFolderToken', async () => {
      const info = await storedLoginInfo(page);
      return info?.accessFolderToken ? info : undefined;
    });
    assert.equal(stored.accessToken, null, 'the recipient is not signed in');
    await page.getByRole('link', { name: 'View Shared Files' }).click();
    await page.waitForURL('**/auth-shared-folder');

    const banner = page.getByRole('region', { name: 'Watermark' });
    await banner.getByText('Authenticated Copy', { exact: true }).waitFor();
    assert.equal((await banner.getByTestId('watermark-generated-for').textContent()).trim(), owner.username);
    assert.equal((await banner.getByTestId('watermark-sent-to').textContent()).trim(), recipient);
    assert.equal((await banner.getByTestId('watermark-transaction-number').textContent()).trim(), transactionNumber);
    await eventually(
      'both copies ready',
      async () => (await page.locator('[data-testid="shared-item"][data-state="ready"]').count()) === 2,
      COPIES_TIMEOUT_MS,
    );
  });

  test('the recipient plays the video copy with the watermark over the player', async () => {
    const page = recipientPage;
    const video = page.getByTestId('shared-item').filter({ hasText: 'Video' });
    await video.getByRole('button', { name: /^Open / }).click();
    const player = page.getByRole('dialog');
    await player.getByText('Authenticated Copy', { exact: true }).waitFor();
    await eventually('the video to play', () => player.getByTestId('player-media').evaluate((media) => media.currentTime > 0 || media.ended), 20000);
    await player.getByRole('button', { name: 'Close' }).click();
    await player.waitFor({ state: 'detached' });

    const photo = page.getByTestId('shared-item').filter({ hasText: 'Photo' });
    const href = await photo.getByRole('link', { name: /^Download / }).getAttribute('href');
    const response = await fetch(href);
    assert.ok(response.ok, `the copy's download link answered ${response.status}`);
    photoCopy = {
      name: (await photo.locator('.shared-item__name').textContent()).trim(),
      bytes: Buffer.from(await response.arrayBuffer()),
    };
    assert.ok(photoCopy.bytes.length > 0);

    // The packet of the copies received checks out offline: each copy against the custody log's
    // record of it, and its original's signed receipt.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download evidence packet' }).click()]);
    assert.match(download.suggestedFilename(), /^evidence-packet-copies-.+\.zip$/);
    const unpacked = await mkdtemp(path.join(tmpdir(), 'copies-packet-'));
    try {
      await run('unzip', ['-q', await download.path(), '-d', unpacked]);
      const { stdout } = await run('sh', [path.join(unpacked, 'verify.sh')]);
      assert.match(stdout, /OK: every check passed/);
      assert.match(stdout, /it is the copy the custody log says was made from the original of the signed receipt/);
    } finally {
      await rm(unpacked, { recursive: true, force: true });
    }
  });

  test('the verification page confirms the transaction number and recognises the downloaded copy by its hash', async () => {
    assert.ok(photoCopy, 'the downloaded photo copy');
    const page = recipientPage;
    await page.goto('/verify');
    await page.getByRole('textbox', { name: 'Transaction Number' }).fill(transactionNumber.toLowerCase());
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.waitForURL(`**/verify/${transactionNumber}`);
    await page.getByTestId('verified-transaction-number').filter({ hasText: transactionNumber }).waitFor();
    assert.equal((await page.getByTestId('verified-generated-for').textContent()).trim(), owner.username);
    // Each original's signed receipt, checked in the recipient's browser against the published key.
    await page.getByTestId('receipt-check').first().filter({ hasText: 'Signed receipt: signature valid' }).waitFor();

    const posted = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/sharing/verify/file/')) posted.push(request.postData());
    });
    await page.getByLabel('Choose a file to verify').setInputFiles({ name: 'copy.jpg', mimeType: 'image/jpeg', buffer: photoCopy.bytes });
    const match = page.getByTestId('byte-identical');
    await match.waitFor({ timeout: 30000 });
    const text = await match.textContent();
    assert.ok(text.includes('This file is byte-identical to a copy we issued.'), text);
    // Rows truncate names (spec §9); the verdict names the file in full.
    assert.ok(text.includes(photoCopy.name.replace(/…$/, '')), `it names the photo ${JSON.stringify(photoCopy.name)}: ${text}`);
    const sha256 = createHash('sha256').update(photoCopy.bytes).digest('hex');
    assert.deepEqual(
      posted.map((body) => JSON.parse(body)),
      [{ sha256 }],
      'only the hash is sent, never the file',
    );
  });

  test("owner and recipient exchange messages, each seeing the other's within one poll", async () => {
    const POLL = 35_000;
    await recipientPage.goto('/auth-shared-folder');
    const theirs = recipientPage.getByRole('region', { name: 'Messages with the sender' });
    await theirs.getByText('No messages yet.').waitFor();
    await theirs.getByLabel('Message', { exact: true }).fill('Received both files, thank you.');
    await theirs.getByRole('button', { name: 'Send' }).click();
    await theirs.locator('[data-testid="chat-message"]').filter({ hasText: 'Received both files, thank you.' }).waitFor();

    // The owner finds the conversation from Home's 'Messages', unread.
    const page = ownerPage;
    await page.goto('/dashboard/home');
    await page.getByRole('link', { name: 'Messages', exact: true }).click();
    await page.waitForURL('**/chats');
    await page.getByRole('link', { name: /, 1 unread$/ }).click();
    const mine = page.getByRole('region', { name: 'Messages', exact: true });
    const fromRecipient = mine.locator('[data-testid="chat-message"]').filter({ hasText: 'Received both files, thank you.' });
    await fromRecipient.waitFor();
    assert.match(await fromRecipient.textContent(), /\*\*\*@example\.com/, 'the recipient is shown masked');

    // Each side's next message reaches the other's open chat by its poll, without a reload.
    await mine.getByLabel('Message', { exact: true }).fill('Glad to hear it. <b>Keep them safe.</b>');
    await mine.getByRole('button', { name: 'Send' }).click();
    await theirs.locator('[data-testid="chat-message"]').filter({ hasText: 'Glad to hear it. <b>Keep them safe.</b>' }).waitFor({ timeout: POLL });
    await theirs.getByLabel('Message', { exact: true }).fill('Will do.');
    await theirs.getByRole('button', { name: 'Send' }).click();
    await mine.locator('[data-testid="chat-message"]').filter({ hasText: 'Will do.' }).waitFor({ timeout: POLL });
  });

  test("after the owner revokes the share, the recipient's access is refused", async () => {
    const page = ownerPage;
    await page.goto(`/folder-view?folderId=${folder.id}`);
    const share = page.getByTestId('share');
    await share.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this share?' });
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await share.getByTestId('share-revoked').waitFor();

    await recipientPage.goto('/auth-shared-folder');
    await recipientPage.getByRole('alert').filter({ hasText: ACCESS_ENDED }).waitFor();
    assert.equal(await recipientPage.getByRole('region', { name: 'Watermark' }).count(), 0, 'no copy is shown');
    await eventually('the ended token forgotten', async () => (await storedLoginInfo(recipientPage))?.accessFolderToken === null);

    // The link from the mail no longer gets a code either.
    await recipientPage.goto(accessPath);
    await recipientPage.getByRole('button', { name: 'Send Code' }).click();
    await recipientPage.getByRole('alert').filter({ hasText: LINK_INVALID }).waitFor();

    // Verification still answers, and says the copy was revoked.
    await recipientPage.goto(`/verify/${transactionNumber}`);
    await recipientPage.getByTestId('verification-revoked').waitFor();
  });
});
