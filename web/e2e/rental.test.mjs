// Browser journey of rental capture: a vehicle Pick-up from the home screen, its sections, the
// interior's 90-second confirmation and video intro ("Don't show me this page again" survives a
// reload), Take Video opening the capture screen, then a Return linked to the Pick-up shown beside
// it. Captures are put into the folders through the REST API and a presigned POST, as the capture
// screen would.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { BASE_URL, eventually, launch, phone, signUp, storedLoginInfo, uniqueUser } from './support.mjs';

/** A small solid-colour PNG, so the service can make a real thumbnail of it. */
function png(width, height, [r, g, b]) {
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => [r, g, b][i % 3])]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

async function apiCall(token, method, path, body) {
  const response = await fetch(`${BASE_URL}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Captures a photo into `folderId`'s `section` as the capture screen does: create, POST to S3, finish. */
async function uploadPhoto(token, folderId, section, name, colour, capturedAt) {
  const bytes = png(32, 24, colour);
  const created = await apiCall(token, 'POST', `evidence/folders/${folderId}/items/create/`, {
    name,
    media_type: 'image',
    mime_type: 'image/png',
    file_size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    captured_at: capturedAt,
    section,
  });
  assert.equal(created.upload?.kind, 'single');
  const form = new FormData();
  for (const [key, value] of Object.entries(created.upload.fields)) form.append(key, value);
  form.append('file', new Blob([bytes], { type: 'image/png' }), name);
  const stored = await fetch(created.upload.url, { method: 'POST', body: form });
  assert.ok(stored.ok, `S3 POST: ${stored.status} ${await stored.text()}`);
  await apiCall(token, 'POST', `evidence/items/${created.item.id}/upload/finish/`);
  return created.item.id;
}

const minutesAgo = (minutes) => new Date(Date.now() - minutes * 60_000).toISOString();

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('vehicle rental: Pick-up, interior intro, Return beside its Pick-up', () => {
  const user = uniqueUser();
  let context;
  let page;
  let pickupId;
  let captureUrl;

  before(async () => {
    context = await phone(browser);
    page = await context.newPage();
    await signUp(page, user);
  });
  after(async () => context?.close());

  test('home → Vehicle Rental: Pick-up, Car, and the capture screen lists the sections', async () => {
    await page.getByRole('link', { name: 'Vehicle Rental' }).click();
    await page.waitForURL('**/vehicle-rental');
    await page.getByRole('radio', { name: 'Pick-up' }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Select Vehicle' }).waitFor();
    await page.getByRole('radio', { name: 'Car' }).check();
    await page.getByRole('button', { name: 'Start Capture' }).click();
    await page.waitForURL((url) => url.pathname === '/vehicle-rental/capture' && url.searchParams.has('folderId'));
    pickupId = new URL(page.url()).searchParams.get('folderId');
    captureUrl = `/vehicle-rental/capture?folderId=${pickupId}`;
    await page.getByRole('heading', { name: 'Car Pick-up' }).waitFor();
    for (const name of ['Body', 'Interior', 'Mileage', 'Fuel']) await page.getByRole('region', { name }).waitFor();
    await page.getByText('0 of 4 sections done').waitFor();
    assert.equal(await page.getByRole('region', { name: 'Body' }).getByText('0 of 4 photos').count(), 1);
  });

  test('the interior confirms the 90 seconds, then its intro; Take Video opens the capture screen', async () => {
    await page.getByRole('region', { name: 'Interior' }).getByRole('button', { name: 'Take Video' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('The recommended recording time is under 90 seconds.').waitFor();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Capture Interior Condition' }).waitFor();
    await page.getByRole('region', { name: 'Guide' }).getByRole('listitem').first().waitFor();
    await page.getByRole('button', { name: 'Play Video Guide' }).click();
    await page.getByText(/^Step 2 of 4/).waitFor();
    await page.getByRole('checkbox', { name: "Don't show me this page again" }).check();
    await page.getByRole('button', { name: 'Take Video' }).click();
    await page.waitForURL((url) => url.pathname === '/evidence');
    const query = Object.fromEntries(new URL(page.url()).searchParams);
    assert.deepEqual(query, { situation: pickupId, section: 'interior', mode: 'video', returnTo: captureUrl });
  });

  test('after a reload the interior intro stays hidden; the 90-second confirmation still comes first', async () => {
    await page.goto(captureUrl);
    await page.reload();
    await page.getByRole('region', { name: 'Interior' }).getByRole('button', { name: 'Take Video' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('The recommended recording time is under 90 seconds.').waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Capture Interior Condition' }).count(), 0);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/evidence' && url.searchParams.get('section') === 'interior');
    // The mileage intro was not hidden: it still shows.
    await page.goto(captureUrl);
    await page.getByRole('region', { name: 'Mileage' }).getByRole('button', { name: 'Take Video' }).click();
    await page.getByRole('heading', { name: 'Mileage' }).waitFor();
    assert.equal(await page.getByRole('dialog').count(), 0);
  });

  test('a capture of the body shows in its section with its thumbnail', async () => {
    const { accessToken } = await storedLoginInfo(page);
    await uploadPhoto(accessToken, pickupId, 'body', 'front', [200, 30, 30], minutesAgo(30));
    await page.goto(captureUrl);
    const body = page.getByRole('region', { name: 'Body' });
    await body.getByText('1 of 4 photos').waitFor();
    const thumb = body.getByRole('img', { name: 'front' });
    await eventually('the body thumbnail', async () => (await thumb.getAttribute('src'))?.startsWith('http') ?? false, 30000);
  });

  test('a Return linked to the Pick-up shows both side by side', async () => {
    await page.goto('/vehicle-rental');
    await page.getByRole('radio', { name: 'Return' }).check();
    await page.getByRole('radio', { name: /^Car Pick-up/ }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    assert.equal(await page.getByRole('radio', { name: 'Car' }).isChecked(), true);
    await page.getByRole('button', { name: 'Start Capture' }).click();
    await page.waitForURL((url) => url.pathname === '/vehicle-rental/capture' && url.searchParams.get('folderId') !== pickupId);
    const returnId = new URL(page.url()).searchParams.get('folderId');
    await page.getByRole('heading', { name: 'Car Return' }).waitFor();

    const { accessToken } = await storedLoginInfo(page);
    const folder = await apiCall(accessToken, 'GET', `evidence/folders/${returnId}/`);
    assert.deepEqual(folder.rental, { kind: 'vehicle', vehicle_type: 'car', moment: 'return', pickup_folder_id: pickupId });
    await uploadPhoto(accessToken, returnId, 'body', 'front-back', [30, 30, 200], minutesAgo(1));

    await page.reload();
    await page.getByRole('button', { name: 'Compare with Pick-up' }).click();
    await page.getByRole('heading', { name: 'Compare with Pick-up' }).waitFor();
    const body = page.getByRole('region', { name: 'Body' });
    const pickupColumn = body.getByRole('list', { name: 'Pick-up captures' });
    const returnColumn = body.getByRole('list', { name: 'Return captures' });
    await pickupColumn.getByRole('img', { name: 'front' }).waitFor();
    await returnColumn.getByRole('img', { name: 'front-back' }).waitFor();
    const time = /^[A-Z][a-z]{2} \d{1,2}, \d{4} \u00b7 \d{2}:\d{2}$/;
    // Once checked (verified), a capture shows its time instead of its upload state.
    await pickupColumn.locator('time').waitFor({ timeout: 30000 });
    await returnColumn.locator('time').waitFor({ timeout: 30000 });
    assert.match((await pickupColumn.locator('time').textContent()) ?? '', time);
    assert.match((await returnColumn.locator('time').textContent()) ?? '', time);
    await page.getByRole('region', { name: 'Interior' }).getByText('No captures').first().waitFor();

    // The Pick-up lists its Return.
    await page.goto(captureUrl);
    await page.getByRole('link', { name: folder.name }).waitFor();
  });

  test('home → Hotel Rental: a check-in guides the room’s sections', async () => {
    await page.goto('/dashboard/home');
    await page.getByRole('link', { name: 'Hotel Rental' }).click();
    await page.getByRole('radio', { name: 'Check-in' }).check();
    await page.getByRole('button', { name: 'Start Capture' }).click();
    await page.waitForURL((url) => url.pathname === '/hotel-rental/capture' && url.searchParams.has('folderId'));
    await page.getByRole('heading', { name: 'Hotel Check-in' }).waitFor();
    for (const name of ['Room', 'Bathroom', 'Bed', 'Furniture', 'Appliances', 'Damage']) await page.getByRole('region', { name, exact: true }).waitFor();
    await page.getByText('0 of 5 sections done').waitFor();
    const { accessToken } = await storedLoginInfo(page);
    const folderId = new URL(page.url()).searchParams.get('folderId');
    const folder = await apiCall(accessToken, 'GET', `evidence/folders/${folderId}/`);
    const { kind, moment, vehicle_type: vehicleType = null, pickup_folder_id: pickupFolderId = null } = folder.rental;
    assert.deepEqual({ kind, moment, vehicleType, pickupFolderId }, { kind: 'hotel', moment: 'pickup', vehicleType: null, pickupFolderId: null });
  });
});
