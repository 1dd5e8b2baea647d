// Browser journey of an anonymous contribution to an organization folder: an organization signs
// up, makes a capture template of three steps on /template-details/new, starts a folder from it
// and sends a contribution link by e-mail. A signed-out phone opens the link from the mail sink,
// proves the e-mail with the mailed code, and sends a photo (one presigned POST) and an 11 MB video
// (past 8 MiB: a multipart upload) through the file picker; both are verified on the contributor's
// folder. The organization sees both as Pending with the contributor's e-mail, accepts them, and
// the Organization tab shows the folder with nothing pending. Screenshots of the screens at phone
// width go to $SHOTS_DIR (/tmp/shots), each with a JSON note of small tap targets and overflow.
// Headless Chromium through Envoy against the real stack.
/* global document, getComputedStyle, location -- page.evaluate bodies run in the browser. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { api, codeFor, eventually, launch, MAIL_DIR, newestMail, PASSWORD, phone, skipOnboarding, uniqueUser } from './support.mjs';

const run = promisify(execFile);
const PLACE = { latitude: 48.8566, longitude: 2.3522 };
const SHOTS_DIR = process.env.SHOTS_DIR ?? '/tmp/shots';
/** The server sends contributions above this size in parts. */
const SINGLE_UPLOAD_MAX_BYTES = 8 * 1024 * 1024;
const VERIFICATION_LINK = /\/organization-sharing\/verification\/([0-9a-f-]{36})\?link=([A-Za-z0-9]+)/;

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

/** The decoded text of the newest mail in the sink to `to` that contains `needle`. */
async function mailTo(to, needle) {
  return eventually(`a mail to ${to} containing ${needle}`, async () => {
    const names = (await readdir(MAIL_DIR).catch(() => []))
      .filter((n) => n.endsWith('.eml'))
      .sort()
      .reverse();
    for (const name of names) {
      const text = mailText(await readFile(path.join(MAIL_DIR, name), 'utf8'));
      if (text.includes(`To: ${to}`) && text.includes(needle)) return text;
    }
    return undefined;
  });
}

/**
 * A full-page screenshot `name`.png in SHOTS_DIR, and beside it `name`.json: the visible controls
 * smaller than 24 CSS px either way (WCAG 2.2 target size) and whether the page scrolls sideways.
 */
async function shoot(page, name) {
  await mkdir(SHOTS_DIR, { recursive: true });
  // Fonts and images settled, the snackbar's animation aside.
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
  const audit = await page.evaluate(() => {
    const small = [];
    for (const el of document.querySelectorAll('a[href], button, input, select, textarea, label[for], [role="button"], [role="tab"]')) {
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      // A field's caption: the field itself is the target.
      if (el.tagName === 'LABEL' && el.control && el.control.getBoundingClientRect().height >= 24) continue;
      if (box.width < 24 || box.height < 24) {
        small.push({
          tag: el.tagName.toLowerCase(),
          type: el.getAttribute('type') ?? undefined,
          text: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 60),
          width: Math.round(box.width),
          height: Math.round(box.height),
        });
      }
    }
    const root = document.documentElement;
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`)
      .slice(0, 10);
    // Anything sticking out of its card (a squeezed row pushes its buttons past the card's edge).
    const outside = [...document.querySelectorAll('.card *')]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        const card = el.closest('.card').getBoundingClientRect();
        return box.width > 1 && (box.right > card.right + 1 || box.left < card.left - 1);
      })
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`)
      .slice(0, 10);
    return { url: location.pathname, width: root.clientWidth, scrollWidth: root.scrollWidth, overflowsSideways: root.scrollWidth > root.clientWidth, wide, outside, small };
  });
  await writeFile(path.join(SHOTS_DIR, `${name}.json`), `${JSON.stringify(audit, null, 2)}\n`);
  assert.equal(audit.overflowsSideways, false, `${name}: the page scrolls sideways (${audit.scrollWidth} px): ${audit.wide.join(', ')}`);
  assert.deepEqual(audit.outside, [], `${name}: controls outside their card`);
  assert.deepEqual(audit.small, [], `${name}: controls under 24 px`);
  return audit;
}

let browser;
let media;
const files = {};
before(async () => {
  browser = await launch();
  // A real JPEG and a real MP4 of about 11 MB (a steady bit rate, so it is past 8 MiB).
  media = await mkdtemp(path.join(tmpdir(), 'evidentia-contribution-'));
  files.photo = path.join(media, 'front.jpg');
  files.video = path.join(media, 'walk-around.mp4');
  const ffmpeg = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'];
  await run('ffmpeg', [...ffmpeg, '-i', 'testsrc=size=1280x720:rate=1', '-frames:v', '1', '-q:v', '3', files.photo]);
  await run('ffmpeg', [
    ...ffmpeg,
    '-i',
    'testsrc=size=1280x720:rate=30',
    '-t',
    '20',
    '-c:v',
    'mpeg4',
    '-b:v',
    '4500k',
    '-minrate',
    '4500k',
    '-maxrate',
    '4500k',
    '-bufsize',
    '2M',
    '-movflags',
    '+faststart',
    files.video,
  ]);
  const videoSize = (await stat(files.video)).size;
  assert.ok(videoSize > 8.5 * 1024 * 1024 && videoSize < 16 * 1024 * 1024, `the video is ${videoSize} bytes`);
});
after(async () => {
  await browser?.close();
  if (media) await rm(media, { recursive: true, force: true });
});

describe('a contribution to an organization folder', () => {
  const owner = uniqueUser();
  const stamp = Date.now().toString(36);
  const organizationName = `Harbor Claims ${stamp}`;
  const templateName = `Car damage ${stamp}`;
  const folderName = `Claim ${stamp}`;
  const contributor = `witness-${stamp}${Math.random().toString(36).slice(2, 6)}@example.com`;
  const STEPS = [
    { name: 'Front', instructions: 'The front of the car, both corners.', media: ['Photo'], min: '1', max: '2' },
    { name: 'Walk-around', instructions: 'Walk once around the car.', media: ['Video'], min: '1', max: '1' },
    { name: 'Voice statement', instructions: 'Say what happened.', media: ['Audio'], min: '0', max: '1' },
  ];
  let context;
  let page;
  let guestContext;
  let guest;
  let folderId;
  let templateId;
  let link;
  /** Every API call the contributor's page made, as 'METHOD path'. */
  const guestCalls = [];
  /** The part numbers the contributor's page PUT to storage. */
  const partsSent = [];
  let multipartPlan;

  before(async () => {
    context = await phone(browser);
    page = await context.newPage();
  });
  after(async () => {
    await guestContext?.close();
    await context?.close();
  });

  test('an organization signs up', async () => {
    await page.goto('/sign-up-organization');
    await page.getByRole('heading', { level: 1, name: 'Sign Up as an Organization' }).waitFor();
    await page.getByLabel('Organization name').fill(organizationName);
    await page.getByLabel('Username').fill(owner.username);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Country code').selectOption('+1');
    await page.getByLabel('Phone number').fill(owner.phone);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Confirmation code').fill(await codeFor(owner.email));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await skipOnboarding(page);
    await page.getByTestId('username').filter({ hasText: owner.username }).waitFor();
  });

  test('makes a capture template of three steps on /template-details/new', async () => {
    await page.goto('/organization-capture-templates/list');
    await page.getByRole('heading', { level: 1, name: 'Capture Templates' }).waitFor();
    await page.getByText('No capture templates yet.').waitFor();
    await shoot(page, 'templates-list-empty');
    await page.getByRole('link', { name: 'New Template' }).click();
    await page.waitForURL('**/template-details/new');
    await page.getByRole('heading', { level: 1, name: 'New Template' }).waitFor();

    await page.getByLabel('Template name').fill(templateName);
    await page.getByLabel('Description').fill('What we need to settle a car damage claim.');
    const steps = page.getByTestId('template-step');
    for (const [index, step] of STEPS.entries()) {
      if (index > 0) await page.getByRole('button', { name: 'Add Step' }).click();
      const card = steps.nth(index);
      await card.getByRole('heading', { name: `Step ${index + 1}` }).waitFor();
      await card.getByLabel('Step name').fill(step.name);
      await card.getByLabel('Instructions').fill(step.instructions);
      for (const kind of ['Photo', 'Video', 'Audio']) await card.getByRole('checkbox', { name: kind }).setChecked(step.media.includes(kind));
      await card.getByLabel('Min files').fill(step.min);
      await card.getByLabel('Max files').fill(step.max);
    }
    assert.equal(await steps.count(), 3);
    await page.getByRole('button', { name: 'Save' }).click();
    const saved = page.getByRole('status').filter({ hasText: 'Template was saved.' });
    await saved.waitFor();
    // Out of the way of the screenshot below.
    await saved.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL((url) => /^\/template-details\/[0-9a-f-]{36}$/.test(url.pathname));
    templateId = new URL(page.url()).pathname.split('/').pop();
    await page.getByRole('heading', { level: 1, name: templateName }).waitFor();

    // The stored template, as the form sent it.
    const stored = await api(page, 'GET', `organizations/capture-templates/${templateId}/`);
    assert.deepEqual(
      stored.steps.map((s) => [s.name, s.media_types, s.min_files, s.max_files]),
      [
        ['Front', ['image'], 1, 2],
        ['Walk-around', ['video'], 1, 1],
        ['Voice statement', ['audio'], 0, 1],
      ],
    );
    // The edit form shows it back.
    await eventually('the edit form filled', async () => (await steps.count()) === 3 && (await steps.nth(2).getByLabel('Step name').inputValue()) === 'Voice statement');
    assert.equal(await steps.nth(1).getByRole('checkbox', { name: 'Video' }).isChecked(), true);
    assert.equal(await steps.nth(1).getByRole('checkbox', { name: 'Photo' }).isChecked(), false);
    await shoot(page, 'template-details-editing');

    await page.goto('/organization-capture-templates/list');
    await page.getByTestId('template').filter({ hasText: templateName }).filter({ hasText: '3 steps' }).waitFor();
    await shoot(page, 'templates-list');
  });

  test('starts a folder from the template', async () => {
    await page.getByTestId('template').filter({ hasText: templateName }).getByRole('link').click();
    await page.waitForURL(`**/template-details/${templateId}`);
    await page.getByRole('button', { name: 'Start a Folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start a Folder' });
    await dialog.getByLabel('Folder name').fill(folderName);
    await dialog.getByRole('button', { name: 'Start' }).click();
    await page.waitForURL((url) => /^\/organization-folder\/[0-9a-f-]{36}$/.test(url.pathname));
    folderId = new URL(page.url()).pathname.split('/').pop();
    await page.getByRole('heading', { level: 1, name: folderName }).waitFor();
    const steps = page.getByTestId('folder-step');
    await eventually('the three steps', async () => (await steps.count()) === 3);
    assert.match(await steps.nth(0).innerText(), /1\. Front[\s\S]*0 of 2 files · at least 1/);
    assert.match(await steps.nth(2).innerText(), /3\. Voice statement[\s\S]*0 of 1 file/);
  });

  test('sends a contribution link by e-mail, for 7 days and 5 submissions', async () => {
    await page.getByRole('button', { name: 'New Contribution Link' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Contribution Link' });
    assert.equal(await dialog.getByRole('radio', { name: 'By E-mail' }).isChecked(), true);
    await dialog.getByLabel('Email').fill(contributor);
    await dialog.getByLabel('Expires in (days)').fill('7');
    await dialog.getByLabel('Files it can send').fill('5');
    await dialog.getByRole('button', { name: 'Send Link' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: `Link sent to ${contributor}.` }).waitFor();
    const row = page.getByTestId('contribution-link').filter({ hasText: contributor });
    await row.getByText('By E-mail · 0 of 5 submissions used').waitFor();
    assert.equal(await row.getAttribute('data-state'), 'active');

    const mail = await mailTo(contributor, '/organization-sharing/verification/');
    const match = VERIFICATION_LINK.exec(mail);
    assert.ok(match, `no verification link in:\n${mail}`);
    assert.equal(match[1], folderId);
    link = match[2];
    assert.match(mail, new RegExp(`Subject: ${organizationName} asks you for evidence`));
  });

  test('the contributor opens the link on a signed-out phone and proves the e-mail', async () => {
    guestContext = await phone(browser);
    await guestContext.grantPermissions(['geolocation', 'camera', 'microphone']);
    await guestContext.setGeolocation(PLACE);
    guest = await guestContext.newPage();
    guest.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) guestCalls.push(`${request.method()} ${url.pathname}`);
      if (request.method() === 'PUT' && url.searchParams.has('partNumber')) partsSent.push(Number(url.searchParams.get('partNumber')));
    });

    await guest.goto(`/organization-sharing/verification/${folderId}?link=${link}`);
    await guest.getByRole('heading', { level: 1, name: 'Prove your e-mail' }).waitFor();
    await shoot(guest, 'contributor-verification');
    await guest.getByLabel('Email').fill(contributor);
    const before = await newestMail();
    await guest.getByRole('button', { name: 'Send Code' }).click();
    await guest.getByRole('status').filter({ hasText: 'We sent a code to' }).waitFor();
    await shoot(guest, 'contributor-verification-code');
    await guest.getByLabel('Confirmation code').fill(await codeFor(contributor, { after: before }));
    await guest.getByRole('button', { name: 'Confirm' }).click();
    await guest.waitForURL(`**/organization-sharing/folder/${folderId}`);
    await guest.getByRole('heading', { level: 1, name: folderName }).waitFor();
    await guest.getByTestId('organization-name').filter({ hasText: organizationName }).waitFor();
    await guest.getByText(contributor).waitFor();
    await guest.getByTestId('link-facts').filter({ hasText: '5 submissions left' }).waitFor();
    const steps = guest.getByTestId('contribution-step');
    await eventually('the three steps', async () => (await steps.count()) === 3);
    assert.deepEqual(
      (await steps.getByRole('heading').allInnerTexts()).map((t) => t.trim()),
      ['1. Front', '2. Walk-around', '3. Voice statement'],
    );
  });

  test('sends a photo and a multipart video through the file picker; both are verified', async () => {
    // The photo, into 'Front': one presigned POST.
    await guest.getByRole('link', { name: 'Capture for Front' }).click();
    await guest.waitForURL(/\/organization-sharing\/evidence\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/);
    await guest.getByRole('heading', { level: 1, name: 'Front' }).waitFor();
    await guest.getByLabel('Choose a File').setInputFiles(files.photo);
    const photoRow = guest.getByTestId('contribution-row');
    await eventually('the photo sent', async () => (await photoRow.getAttribute('data-status').catch(() => null)) === 'sent', 60000);
    await photoRow.getByText('Verified').waitFor({ timeout: 60000 });
    await shoot(guest, 'contributor-capture-photo');
    assert.ok(guestCalls.some((c) => /^POST \/api\/sharing\/anonymous\/proofs\/proofs\/[0-9a-f-]{36}\/single-upload-url\/create\/$/.test(c)), 'the photo went in one POST');
    assert.ok(!guestCalls.some((c) => c.includes('multipart-upload/start/')), 'no multipart upload for the photo');

    await guest.getByRole('link', { name: 'Back to Folder' }).click();
    await guest.waitForURL(`**/organization-sharing/folder/${folderId}`);

    // The video, into 'Walk-around': past 8 MiB, so in parts.
    await guest.getByRole('link', { name: 'Capture for Walk-around' }).click();
    await guest.getByRole('heading', { level: 1, name: 'Walk-around' }).waitFor();
    const started = guest.waitForResponse((response) => response.url().includes('/multipart-upload/start/') && response.request().method() === 'POST', { timeout: 60000 });
    await guest.getByLabel('Choose a File').setInputFiles(files.video);
    const startAnswer = await started;
    assert.equal(startAnswer.status(), 200, await startAnswer.text());
    multipartPlan = await startAnswer.json();
    const videoRow = guest.getByTestId('contribution-row');
    await eventually('the video sent', async () => (await videoRow.getAttribute('data-status').catch(() => null)) === 'sent', 120000);
    await videoRow.getByText('Verified').waitFor({ timeout: 90000 });
    await shoot(guest, 'contributor-capture-video');

    const videoSize = (await stat(files.video)).size;
    assert.ok(videoSize > SINGLE_UPLOAD_MAX_BYTES);
    assert.ok(guestCalls.some((c) => /^POST \/api\/sharing\/anonymous\/proofs\/[0-9a-f-]{36}\/multipart-upload\/start\/$/.test(c)), 'the video used multipart-upload/start/');
    assert.equal(multipartPlan.part_count, Math.ceil(videoSize / multipartPlan.part_size), 'parts cover the file');
    assert.ok(multipartPlan.part_count >= 2, `${multipartPlan.part_count} parts`);
    assert.deepEqual([...new Set(partsSent)].sort((a, b) => a - b), Array.from({ length: multipartPlan.part_count }, (_, i) => i + 1), 'every part was sent');

    // Both show verified on the contributor's folder.
    await guest.getByRole('link', { name: 'Back to Folder' }).click();
    await guest.waitForURL(`**/organization-sharing/folder/${folderId}`);
    const steps = guest.getByTestId('contribution-step');
    await eventually(
      'both submissions verified on the folder',
      async () => (await guest.locator('[data-testid="submission"][data-status="verified"]').count()) === 2,
      60000,
    );
    await steps.nth(0).locator('[data-testid="submission"][data-status="verified"]').getByText('Verified').waitFor();
    await steps.nth(1).locator('[data-testid="submission"][data-status="verified"]').getByText('Verified').waitFor();
    await steps.nth(2).getByText('Nothing sent for this step yet.').waitFor();
    await guest.getByTestId('link-facts').filter({ hasText: '3 submissions left' }).waitFor();
    await shoot(guest, 'contributor-folder');
  });

  test('the organization sees both as Pending with the e-mail, accepts them, and nothing is pending', async () => {
    // The Organization tab counts what waits for review.
    await page.goto('/dashboard/organization-captures');
    const folderRow = page.getByTestId('organization-folder').filter({ hasText: folderName });
    await folderRow.getByText('2 pending').waitFor();

    await folderRow.getByRole('link').click();
    await page.waitForURL(`**/organization-folder/${folderId}`);
    const items = page.getByTestId('step-item');
    await eventually('both contributions listed', async () => (await items.count()) === 2);
    for (const [index, kind] of [
      [0, 'image'],
      [1, 'video'],
    ]) {
      const item = page.getByTestId('folder-step').nth(index).getByTestId('step-item');
      await item.getByText(`From ${contributor}`).waitFor();
      await item.getByText('Pending', { exact: true }).waitFor();
      await item.getByText(/Verified/).waitFor();
      if (kind === 'image') await item.getByRole('img', { name: /^Thumbnail of / }).waitFor();
    }
    await shoot(page, 'organization-folder-pending');

    for (const index of [0, 1]) {
      const item = page.getByTestId('folder-step').nth(index).getByTestId('step-item');
      await item.getByRole('button', { name: /^Accept / }).click();
      await item.getByText('Accepted', { exact: true }).waitFor();
      assert.equal(await item.getByRole('button', { name: /^Accept / }).count(), 0);
    }
    const accepted = page.getByRole('status').filter({ hasText: 'Contribution was accepted.' });
    await accepted.waitFor();
    await accepted.getByRole('button', { name: 'Close' }).click();
    await shoot(page, 'organization-folder-accepted');

    // The API agrees: both accepted, from the contributor.
    const folder = await api(page, 'GET', `organizations/folders/${folderId}/`);
    const reviewed = folder.steps.flatMap((step) => step.items);
    assert.equal(reviewed.length, 2);
    for (const item of reviewed) {
      assert.equal(item.review_state, 'accepted');
      assert.equal(item.contributor_email, contributor);
      assert.equal(item.status, 'verified');
    }
    assert.deepEqual(
      folder.steps.map((step) => step.complete),
      [true, true, true],
    );

    await page.goto('/dashboard/organization-captures');
    await folderRow.getByText('3 of 3 steps complete').waitFor();
    assert.equal(await folderRow.getByText(/pending/).count(), 0);
    const { folders } = await api(page, 'GET', 'organizations/folders/');
    assert.equal(folders.find((f) => f.id === folderId).pending_count, 0);
    await shoot(page, 'organization-tab');
  });
});
