// Phone-width accessibility of the main screens (WCAG 2.2): every visible control is at least 24 x 24
// CSS px itself (stricter than WCAG's spacing exception), links inside a sentence excepted; the player's seek slider uses the screen's width; Escape closes the
// player and a bottom sheet; the one back control. Needs the stack (see docs/web.md).
/* global document, window -- page.evaluate bodies run in the browser. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { BASE_URL, eventually, launch, phone, signUp, storedLoginInfo, uniqueUser } from './support.mjs';
import { undersizedTargets } from './targets.mjs';

async function api(page, method, path, body) {
  const { accessToken } = await storedLoginInfo(page);
  const response = await fetch(`${BASE_URL}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${accessToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** One second of a 440 Hz tone as 8 kHz 16-bit mono PCM WAV. */
function makeWav() {
  const rate = 8000;
  const samples = rate;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

async function uploadAudio(page, folderId, name) {
  const bytes = makeWav();
  const created = await api(page, 'POST', `evidence/folders/${folderId}/items/create/`, {
    name,
    media_type: 'audio',
    mime_type: 'audio/wav',
    file_size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    captured_at: new Date().toISOString(),
    latitude: 52.5163,
    longitude: 13.3777,
  });
  const form = new FormData();
  for (const [key, value] of Object.entries(created.upload.fields)) form.append(key, value);
  form.append('file', new Blob([bytes], { type: 'audio/wav' }), 'note.wav');
  const stored = await fetch(created.upload.url, { method: 'POST', body: form });
  assert.ok(stored.ok, `the presigned POST was refused: ${stored.status}`);
  await api(page, 'POST', `evidence/items/${created.item.id}/upload/finish/`, {});
  await eventually('the recording to be verified', async () => (await api(page, 'GET', `evidence/items/${created.item.id}/`)).status === 'verified', 30000);
}

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('phone-width targets, the seek slider, Escape and the back control', () => {
  const user = uniqueUser();
  const folderName = `Targets ${Date.now().toString(36)}`;
  const recording = 'Voice note';
  let context;
  let page;
  let folder;

  before(async () => {
    context = await phone(browser);
    page = await context.newPage();
    await signUp(page, user);
    folder = await api(page, 'POST', 'evidence/folders/create/', { name: folderName });
    await uploadAudio(page, folder.id, recording);
  });
  after(async () => context?.close());

  const screens = () => [
    ['/dashboard/home', null],
    ['/dashboard/my-files', null],
    [`/folder-view?folderId=${folder.id}`, null],
    [`/delete-files/${folder.id}`, null],
    [`/proof-metadata-view/${folder.id}`, null],
    ['/folders-map-view', null],
    [`/folder-map-view?folderId=${folder.id}`, null],
    ['/dashboard/settings', null],
    ['/account-info', null],
    ['/events-history', null],
    ['/payment-methods', null],
    ['/stored-account', null],
    ['/pricing-models', null],
    [`/extend-storage-date/${folder.id}`, null],
    ['/legal', null],
    ['/faq', null],
    ['/dashboard/organization-captures', null],
  ];

  test('every visible control on the main screens is at least 24 x 24 CSS px', async () => {
    const failures = [];
    for (const [path, heading] of screens()) {
      await page.goto(path);
      if (heading) await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
      else await page.locator('main h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      // Walk the whole page height: what is below the fold counts too.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0; y < height; y += 700) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        for (const target of await page.evaluate(undersizedTargets)) failures.push(`${path}: ${target}`);
      }
    }
    assert.deepEqual([...new Set(failures)], []);
  });

  test('the player’s seek slider spans the screen, and Escape closes the player', async () => {
    await page.goto(`/folder-view?folderId=${folder.id}`);
    await page.getByRole('button', { name: `Open ${recording}` }).click();
    const player = page.getByRole('dialog', { name: recording });
    const seek = player.getByRole('slider', { name: 'Seek' });
    await seek.waitFor();
    const box = await seek.boundingBox();
    assert.ok(box.width >= 0.6 * 390, `the seek slider is ${Math.round(box.width)} px wide`);
    assert.ok(box.height >= 24, `the seek slider is ${Math.round(box.height)} px high`);
    assert.deepEqual(await page.evaluate(undersizedTargets), []);
    await page.keyboard.press('Escape');
    await player.waitFor({ state: 'detached' });
  });

  test('Escape closes a bottom sheet', async () => {
    await page.goto('/dashboard/my-files');
    await page.getByRole('button', { name: `More actions for ${folderName}` }).click();
    const sheet = page.getByRole('dialog', { name: folderName });
    await sheet.waitFor();
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
  });

  test('the screens go back with the one back control', async () => {
    await page.goto(`/folder-view?folderId=${folder.id}`);
    const back = page.getByRole('link', { name: 'Back to My Files' });
    assert.equal(await back.getAttribute('class'), 'back-control');
    await back.click();
    await page.waitForURL('**/dashboard/my-files');
    await page.goto('/events-history');
    await page.getByRole('link', { name: 'Back to Settings' }).click();
    await page.waitForURL('**/dashboard/settings');
  });
});
