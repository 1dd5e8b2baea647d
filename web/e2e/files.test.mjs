// Browser journey of My Files (spec §2 "File list and file actions", "Media viewers", §4 storage
// states, §5 "File name", §8 "Expired storage"): a folder and a photo set up through the REST API
// and a presigned POST from node, then the screens in headless Chromium through Envoy.
/* global document */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { BASE_URL, eventually, launch, phone, signUp, storedLoginInfo, uniqueUser } from './support.mjs';

const run = promisify(execFile);
const EVIDENCE_DATABASE_URL = process.env.EVIDENCE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/evidentia_evidence';
const FILE_NAME = 'Front bumper scratch';
const NEW_NAME = 'Rear door dent';
// Brandenburg Gate: the gazetteer names the city.
const PLACE = { latitude: 52.5163, longitude: 13.3777 };

/** Calls the API with the page's session; the parsed JSON body (or null for an empty one). */
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

/** A small real JPEG, drawn on a canvas by the browser. */
async function makeJpeg(page) {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 96;
    canvas.height = 64;
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#1b3a5c';
    ctx.fillRect(0, 0, 96, 64);
    ctx.fillStyle = '#c62828';
    ctx.fillRect(20, 16, 40, 24);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.9));
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    return btoa(binary);
  });
  return Buffer.from(base64, 'base64');
}

/** Registers the photo, uploads it with the presigned POST, finishes, and waits for verification and thumbnail. */
async function uploadPhoto(page, folderId, bytes) {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const created = await api(page, 'POST', `evidence/folders/${folderId}/items/create/`, {
    name: FILE_NAME,
    media_type: 'image',
    mime_type: 'image/jpeg',
    file_size: bytes.length,
    sha256,
    captured_at: new Date().toISOString(),
    ...PLACE,
  });
  const { item, upload } = created;
  assert.equal(upload.kind, 'single');
  const form = new FormData();
  for (const [key, value] of Object.entries(upload.fields)) form.append(key, value);
  form.append('file', new Blob([bytes], { type: 'image/jpeg' }), 'photo.jpg');
  const stored = await fetch(upload.url, { method: 'POST', body: form });
  assert.ok(stored.ok, `the presigned POST was refused: ${stored.status} ${await stored.text()}`);
  await api(page, 'POST', `evidence/items/${item.id}/upload/finish/`, {});
  const ready = await eventually(
    'the photo to be verified with a thumbnail',
    async () => {
      const current = await api(page, 'GET', `evidence/items/${item.id}/`);
      return current.status === 'verified' && current.thumbnail ? current : undefined;
    },
    30000,
  );
  return { ...ready, sha256 };
}

async function expireFolder(folderId) {
  await run('psql', [EVIDENCE_DATABASE_URL, '-v', 'ON_ERROR_STOP=1', '-c', `UPDATE folders SET storage_expires_at = now() - interval '1 day' WHERE id = '${folderId}'`]);
}

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('My Files', () => {
  const user = uniqueUser();
  const folderName = `Car rental ${Date.now().toString(36)}`;
  let context;
  let page;
  let folder;
  let photo;

  before(async () => {
    context = await phone(browser);
    page = await context.newPage();
    await signUp(page, user);
    folder = await api(page, 'POST', 'evidence/folders/create/', { name: folderName });
    photo = await uploadPhoto(page, folder.id, await makeJpeg(page));
  });
  after(async () => context?.close());

  test('My Files lists the folder with its file count and storage date', async () => {
    await page.getByRole('link', { name: 'My Files' }).click();
    await page.waitForURL('**/dashboard/my-files');
    const row = page.getByTestId('folder').filter({ hasText: folderName });
    await row.waitFor();
    const text = await row.textContent();
    assert.match(text, /1 file\b/);
    assert.match(text, /Storage date: [A-Z][a-z]{2} \d{1,2}, \d{4}/);
  });

  test('the folder view shows the row with the cut name, the thumbnail and Uploaded', async () => {
    await page.getByRole('link', { name: new RegExp(folderName) }).click();
    await page.waitForURL(`**/folder-view?folderId=${folder.id}`);
    const row = page.getByTestId('file');
    await row.waitFor();
    assert.equal(await row.getByTestId('file-name').textContent(), 'Front bumper s...');
    assert.match(await row.textContent(), /Uploaded/);
    const thumbnail = row.getByRole('img', { name: `Thumbnail of ${FILE_NAME}` });
    await eventually('the thumbnail to load', () => thumbnail.evaluate((img) => img.complete && img.naturalWidth > 0));
  });

  test('rename shows the file-name messages, then a valid name sticks', async () => {
    await page.getByRole('button', { name: `More actions for ${FILE_NAME}` }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const input = page.getByRole('dialog', { name: 'Rename file' }).getByLabel('Name');
    await input.fill('a');
    await page.getByText('Must be 2 characters or more').waitFor();
    await input.fill('Bumper <1>');
    await page.getByText('Special characters can not be used').waitFor();
    await input.fill('x'.repeat(51));
    await page.getByText('Must be 50 characters or less').waitFor();
    await input.fill(NEW_NAME);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog', { name: 'Rename file' }).waitFor({ state: 'detached' });
    await page.getByTestId('file-name').filter({ hasText: NEW_NAME }).waitFor();
    await page.reload();
    await page.getByTestId('file-name').filter({ hasText: NEW_NAME }).waitFor();
    const stored = await api(page, 'GET', `evidence/items/${photo.id}/`);
    assert.equal(stored.name, NEW_NAME);
  });

  test('details and proof metadata show the SHA-256, the place and the checked signed receipt', async () => {
    await page.getByRole('button', { name: `More actions for ${NEW_NAME}` }).click();
    await page.getByRole('menuitem', { name: 'Details' }).click();
    const details = page.getByRole('dialog', { name: 'Details' });
    // Exact: the file's custody log below its facts names the SHA-256 too.
    await details.getByText(photo.sha256, { exact: true }).waitFor();
    // Chromium's WebCrypto checks the Ed25519 signature against the published key.
    const { keys } = await api(page, 'GET', '.well-known/receipt-keys');
    await details.getByTestId('receipt-check').filter({ hasText: `Signed receipt: signature valid (key ${keys[0].id})` }).waitFor();
    await details.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('link', { name: 'Proof metadata' }).click();
    await page.waitForURL(`**/proof-metadata-view/${folder.id}`);
    // Exact: the chain of custody below holds a region 'Custody of <name>' whose log names the SHA-256 too.
    const section = page.getByRole('region', { name: NEW_NAME, exact: true });
    await section.getByText(photo.sha256, { exact: true }).waitFor();
    const text = await section.textContent();
    assert.match(text, /52\.516300, 13\.377700/);
    assert.match(text, /Berlin/);
    assert.match(text, /Verified/);
    await section.getByTestId('receipt-check').filter({ hasText: 'signature valid' }).waitFor();

    // The evidence packet downloads as a ZIP that checks out offline with its own verify.sh.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download evidence packet' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^evidence-packet-.+\.zip$/);
    const unpacked = await mkdtemp(join(tmpdir(), 'packet-'));
    try {
      await run('unzip', ['-q', await download.path(), '-d', unpacked]);
      const { stdout } = await run('sh', [join(unpacked, 'verify.sh')]);
      assert.match(stdout, /OK: every check passed/);
      assert.match(stdout, /SHA-256 matches the manifest and its signed receipt/);
    } finally {
      await rm(unpacked, { recursive: true, force: true });
    }
    await page.goBack();
  });

  test('opening the photo shows it in the image viewer', async () => {
    await page.getByRole('button', { name: `Open ${NEW_NAME}` }).click();
    const viewer = page.getByRole('dialog', { name: NEW_NAME });
    const image = viewer.getByRole('img', { name: NEW_NAME });
    await eventually('the photo to load', () => image.evaluate((img) => img.complete && img.naturalWidth === 96));
    await viewer.getByRole('button', { name: 'Close' }).click();
    await viewer.waitFor({ state: 'detached' });
  });

  test('the grid toggle shows tiles', async () => {
    await page.getByRole('button', { name: 'Grid' }).click();
    assert.equal(await page.getByRole('list', { name: 'Files' }).getAttribute('data-layout'), 'grid');
    assert.equal(await page.locator('.files-tile').count(), 1);
    await page.getByRole('button', { name: 'List' }).click();
  });

  test('the folder map shows a marker for the photo with its name in the popup', async () => {
    await page.getByRole('link', { name: 'Map' }).click();
    await page.waitForURL(`**/folder-map-view?folderId=${folder.id}`);
    const marker = page.locator(`path.files-map__marker[aria-label="${NEW_NAME}, 1 file"]`);
    await marker.waitFor();
    if (!process.env.VITE_MAP_TILE_URL) await page.getByTestId('no-tiles').getByText('No map tile source is configured').waitFor();
    await marker.click();
    await page.locator('.leaflet-popup').getByText(NEW_NAME).waitFor();
    await page.goBack();
  });

  test('the folders map shows a marker for the folder at its photo', async () => {
    await page.goto('/folders-map-view');
    const marker = page.locator(`path.files-map__marker[aria-label="${folderName}, 1 file"]`);
    await marker.waitFor();
    await page.locator('.files-map__count').getByText('1', { exact: true }).waitFor();
    await marker.click();
    await page.locator('.leaflet-popup').getByRole('link', { name: 'Open folder' }).click();
    await page.waitForURL(`**/folder-view?folderId=${folder.id}`);
    await page.getByTestId('file').waitFor();
  });

  test('My Files offline shows the last known folders and says so', async () => {
    await page.goto('/dashboard/my-files');
    await page.getByTestId('folder').filter({ hasText: folderName }).waitFor();
    // The shell comes from the service worker once it controls the page.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await eventually('the service worker to control the page', () => page.evaluate(() => Boolean(navigator.serviceWorker.controller)));
    await context.setOffline(true);
    try {
      await page.reload();
      await page.getByTestId('last-known').getByText('You are offline. Showing the last known list').waitFor();
      await page.getByTestId('folder').filter({ hasText: folderName }).waitFor();
    } catch (error) {
      await context.setOffline(false);
      throw error;
    }
    // Coming back online reloads the page (spec §4): let it finish before going on.
    const reloaded = page.waitForEvent('load');
    await context.setOffline(false);
    await reloaded;
    await page.goto(`/folder-view?folderId=${folder.id}`);
    await page.getByTestId('file').waitFor();
  });

  test('leaving delete-files with a selection asks first', async () => {
    await page.getByRole('link', { name: 'Delete files' }).click();
    await page.waitForURL(`**/delete-files/${folder.id}`);
    await page.getByRole('checkbox', { name: NEW_NAME }).check();
    await page.getByRole('link', { name: folderName }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave this page?' });
    await dialog.getByText('Your progress and data will be lost.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.match(page.url(), /\/delete-files\//);
    await page.getByRole('link', { name: folderName }).click();
    await page.getByRole('dialog', { name: 'Leave this page?' }).getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL(`**/folder-view?folderId=${folder.id}`);
    await page.getByTestId('file').waitFor();
  });

  test("an expired folder's file cannot be opened: 'Please extend your Storage Date for this file.'", async () => {
    await expireFolder(folder.id);
    await page.reload();
    const row = page.getByTestId('file');
    await row.getByText('Expired').waitFor();
    await row.getByRole('button', { name: `Open ${NEW_NAME}` }).click();
    await page.getByRole('status').filter({ hasText: 'Please extend your Storage Date for this file.' }).waitFor();
    assert.equal(await page.getByRole('dialog', { name: NEW_NAME }).count(), 0);

    await page.getByRole('link', { name: 'My Files' }).click();
    await page.getByTestId('folder').filter({ hasText: folderName }).getByText('Expired').waitFor();
  });
});
