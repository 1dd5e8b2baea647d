// Capture journeys: Chromium's fake camera and microphone and a granted location,
// through Envoy against the real stack and SeaweedFS.
/* global indexedDB -- page.evaluate bodies run in the browser. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiGet, eventually, launch, phone, signUp, uniqueUser } from './support.mjs';

const PLACE = { latitude: 48.8566, longitude: 2.3522 };

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function capturingContext() {
  const context = await phone(browser);
  await context.grantPermissions(['geolocation', 'camera', 'microphone']);
  await context.setGeolocation(PLACE);
  return context;
}

function situationOf(page) {
  return new URL(page.url()).searchParams.get('situation');
}

/** The folder made for a situation, found among the user's folders by a file's client id. */
async function itemsOfSituation(page, folderId) {
  return (await apiGet(page, `evidence/folders/${folderId}/items/`)).items;
}

async function waitUploaded(page, count) {
  await eventually(`${count} uploaded rows`, async () => (await page.locator('[data-testid="upload-row"][data-status="fulfilled"]').count()) === count, 60000);
}

describe('capture photo, video and audio', () => {
  const user = uniqueUser();
  let context;
  let page;

  before(async () => {
    context = await capturingContext();
    page = await context.newPage();
    await signUp(page, user);
  });
  after(async () => context?.close());

  test('a photo, a video and an audio note upload with their place', async () => {
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

    await page.getByRole('tab', { name: 'Audio' }).click();
    await page.getByRole('button', { name: 'Start Audio Recording' }).click();
    await page.getByRole('timer').filter({ hasText: '00:00:01' }).waitFor();
    await page.getByRole('button', { name: 'Stop Recording' }).click();
    await waitUploaded(page, 3);
    assert.equal(await page.getByText('Uploaded', { exact: true }).count(), 3);

    const { folders } = await apiGet(page, 'evidence/folders/');
    assert.equal(folders.length, 1);
    const items = await eventually('verified items with thumbnails', async () => {
      const list = await itemsOfSituation(page, folders[0].id);
      // Photos get a thumbnail and videos a poster frame; audio has neither.
      const ready = list.length === 3 && list.every((i) => i.status === 'verified') && list.filter((i) => i.thumbnail).length === 2;
      return ready ? list : undefined;
    }, 60000);
    const byType = Object.fromEntries(items.map((i) => [i.media_type, i]));
    assert.deepEqual(Object.keys(byType).sort(), ['audio', 'image', 'video']);
    for (const item of items) {
      assert.ok(Math.abs(item.latitude - PLACE.latitude) < 1e-6, `${item.media_type} latitude`);
      assert.ok(Math.abs(item.longitude - PLACE.longitude) < 1e-6, `${item.media_type} longitude`);
      assert.equal(item.city, 'Paris');
      assert.ok(item.captured_at && item.uploaded_at, 'device and server times');
    }
    assert.ok(byType.image.thumbnail, 'the photo has a thumbnail');
    assert.ok(byType.video.thumbnail, 'the video has a poster frame');
    assert.equal(byType.audio.thumbnail ?? null, null);
    assert.ok(byType.video.duration >= 2, 'the video has its duration');
    assert.ok(byType.audio.duration >= 1, 'the audio note has its duration');
    assert.match(byType.video.mime_type, /^video\//);
    assert.match(byType.audio.mime_type, /^audio\//);

    // The folder exists now: the new-folder notice has gone, and Done opens the folder just filled.
    await eventually('the new-folder notice gone', async () => (await page.getByText('A new folder is made for these files.').count()) === 0);
    await page.getByRole('link', { name: 'Done' }).click();
    await page.waitForURL((url) => `${url.pathname}${url.search}` === `/folder-view?folderId=${folders[0].id}`);
  });

  test('a retake replaces the photo of the same item', async () => {
    const { folders } = await apiGet(page, 'evidence/folders/');
    const photo = (await itemsOfSituation(page, folders[0].id)).find((i) => i.media_type === 'image');
    assert.ok(photo.can_retake, 'a file of a live folder can be retaken');
    const back = `/folder-view?folderId=${folders[0].id}`;
    await page.goto(`/evidence?situation=${folders[0].id}&retake=${photo.id}&mode=photo&returnTo=${encodeURIComponent(back)}`);
    await page.getByRole('heading', { name: 'Retake' }).waitFor();
    assert.equal(await page.getByRole('tablist').count(), 0, 'a retake keeps the media type');
    await page.getByRole('button', { name: 'Take Photo' }).click();
    await waitUploaded(page, 1);
    // Chromium's fake camera may give the very same frame twice, so the hash can repeat: the new
    // capture shows in its device time and its own verification.
    const retaken = await eventually('the retake verified', async () => {
      const item = await apiGet(page, `evidence/items/${photo.id}/`);
      const newer = item.captured_at !== photo.captured_at && item.verified_at !== photo.verified_at;
      return item.status === 'verified' && newer ? item : undefined;
    }, 60000);
    assert.ok(new Date(retaken.captured_at) > new Date(photo.captured_at), 'the retake was captured later');
    assert.equal(retaken.name, photo.name);
    assert.equal((await itemsOfSituation(page, folders[0].id)).length, 3, 'no new item');
    await page.getByRole('link', { name: 'Done' }).click();
    await page.waitForURL((url) => `${url.pathname}${url.search}` === back);
  });

  test('without location, the help sheet explains how to allow it', async () => {
    const denied = await phone(browser);
    await denied.grantPermissions(['camera', 'microphone']);
    const other = await denied.newPage();
    await signUp(other, uniqueUser());
    await other.goto('/evidence');
    await other.getByText('Location is off: files will be saved without their place.').waitFor();
    await other.getByRole('button', { name: 'How to turn it on' }).click();
    const sheet = other.getByRole('dialog', { name: 'Turn on Location Services' });
    await sheet.getByText('Allow Evidentia to access the device location').waitFor();
    await denied.close();
  });
});

describe('offline capture', () => {
  const user = uniqueUser();
  let context;
  let page;

  before(async () => {
    context = await capturingContext();
    page = await context.newPage();
    await signUp(page, user);
    // The service worker takes control (it does not claim open pages, so the page is reloaded
    // once it is active), so the app shell loads offline.
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await eventually('the page controlled by the service worker', () => page.evaluate(() => navigator.serviceWorker.controller !== null));
  });
  after(async () => context?.close());

  test('waits on the device through a reload, then Continue uploads it', async () => {
    await page.goto('/evidence?mode=photo');
    await page.waitForURL(/situation=/);
    const situation = situationOf(page);
    await page.getByRole('button', { name: 'Take Photo' }).waitFor();

    await context.setOffline(true);
    await page.getByText('The network connection is poor or was lost.').waitFor();
    await page.getByRole('button', { name: 'Take Photo' }).click();
    await page.locator('[data-testid="upload-row"]').getByText('Waiting for the network').waitFor();
    await page.getByRole('button', { name: 'Take Photo' }).click();
    await eventually('two waiting rows', async () => (await page.locator('[data-testid="upload-row"][data-status="waiting"]').count()) === 2);

    // The capture page is closed and the app opened afresh (offline, from the service worker):
    // nothing of the old page's own reconnect handling can reach the new one.
    await page.close();
    page = await context.newPage();
    await page.goto('/dashboard/home');
    await page.waitForURL('**/dashboard/home');
    await page.getByText('2 files are waiting to be uploaded.', { exact: false }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/dashboard/home', 'the app shell came from the service worker');

    // Back online: the page reloads and the banner offers to continue.
    await context.setOffline(false);
    const banner = page.getByRole('status').filter({ hasText: 'You have an unfinished process.' });
    await banner.waitFor({ timeout: 20000 });
    assert.match(await banner.innerText(), /2 files are waiting to be uploaded\./);
    await banner.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/evidence\?/);
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('situation'), situation);
    assert.equal(url.searchParams.get('syncOffline'), '1');
    await waitUploaded(page, 2);

    // A file counts once the evidence service has checked its bytes, which happens a moment after
    // the upload finishes (on the upload's event), so the count is awaited rather than read once.
    const folders = await eventually('both files counted in the folder', async () => {
      const listed = (await apiGet(page, 'evidence/folders/')).folders;
      return listed.length === 1 && listed[0].file_count === 2 ? listed : listed.length > 1 ? listed : false;
    });
    assert.equal(folders.length, 1, 'one folder for the situation, however often its create was sent');
    assert.equal(folders[0].file_count, 2);
    assert.equal(await page.evaluate(async () => {
      const db = await new Promise((resolve, reject) => {
        const open = indexedDB.open('evidentia');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const totals = await new Promise((resolve) => {
        const req = db.transaction('meta').objectStore('meta').get('totals');
        req.onsuccess = () => resolve(req.result);
      });
      db.close();
      return totals.count;
    }), 0, 'the store is empty once everything is sent');
  });
});

describe('an interrupted multipart upload', () => {
  const user = uniqueUser();
  let context;
  let page;

  before(async () => {
    context = await capturingContext();
    page = await context.newPage();
    await signUp(page, user);
  });
  after(async () => context?.close());

  test('resumes after a reload without sending finished parts again', async () => {
    // A 120 MB recording (past the 100 MiB single-upload limit: multipart, parts of 8 MiB) waiting
    // in the offline store as the capture screen leaves it, hashed in the page.
    const situation = await page.evaluate(async () => {
      const size = 120_000_000;
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i += 4096) bytes[i] = (i / 4096) % 251;
      const sha256 = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)))
        .map((b) => b.toString(16).padStart(2, '0'))
        .join('');
      const situationId = crypto.randomUUID();
      const id = crypto.randomUUID();
      const info = {
        id,
        situation: situationId,
        name: 'Video_20261121_120000',
        mediaType: 'video',
        mimeType: 'video/webm',
        size,
        sha256,
        capturedAt: new Date().toISOString(),
        durationSeconds: 600,
      };
      const db = await new Promise((resolve, reject) => {
        const open = indexedDB.open('evidentia', 1);
        open.onupgradeneeded = () => {
          open.result.createObjectStore('evidences', { keyPath: 'situation' });
          open.result.createObjectStore('blobs', { keyPath: 'id' });
          open.result.createObjectStore('meta');
        };
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      await new Promise((resolve, reject) => {
        const tx = db.transaction(['evidences', 'blobs', 'meta'], 'readwrite');
        tx.objectStore('evidences').put({ situation: situationId, order: 0, data: [info] });
        tx.objectStore('blobs').put({ id, situation: situationId, blob: new Blob([bytes], { type: 'video/webm' }) });
        tx.objectStore('meta').put({ count: 1, bytes: size, nextOrder: 1 }, 'totals');
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
      });
      db.close();
      return situationId;
    });

    // Let parts 1 to 4 through; hold every later part so the upload stops half-way. After the
    // reload (phase 'resume') every part sent is recorded. One handler for both phases, so no part
    // slips through unseen between them.
    const sent = [];
    const held = [];
    const resent = [];
    let phase = 'hold';
    await page.route(/partNumber=\d+/, async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      const part = Number(new URL(route.request().url()).searchParams.get('partNumber'));
      if (phase === 'resume') {
        resent.push(part);
        return route.continue();
      }
      sent.push(part);
      if (part <= 4) return route.continue();
      held.push(route);
      return undefined;
    });
    await page.goto(`/evidence?situation=${situation}&syncOffline=1`);
    await eventually('parts 1 to 4 stored', async () => {
      const { folders } = await apiGet(page, 'evidence/folders/');
      if (folders.length !== 1) return false;
      const [item] = await itemsOfSituation(page, folders[0].id);
      if (!item) return false;
      const token = await page.evaluate(() => JSON.parse(JSON.parse(localStorage.getItem('persist:evidentia')).loginInfo).accessToken);
      const parts = await fetch(`${new URL(page.url()).origin}/api/evidence/items/${item.id}/multipart-upload/part-urls/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ part_numbers: [] }),
      }).then((r) => r.json());
      return [1, 2, 3, 4].every((n) => parts.completed_parts.includes(n));
    }, 60000);
    assert.ok(held.length > 0, 'later parts were held back');

    // The page goes away mid-upload. Whatever the old page still sends (a retry of a held part)
    // is held too; once the reloaded document has replaced it, every part it sends is recorded:
    // each part still missing, and only those.
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) phase = 'resume';
    });
    await page.reload();
    await waitUploaded(page, 1);
    for (const part of [1, 2, 3, 4]) assert.ok(!resent.includes(part), `part ${part} was not sent again (resent: ${resent})`);
    assert.ok(resent.length > 0 && resent.length <= 15 - 4, `only the missing parts were sent: ${resent}`);

    const { folders } = await apiGet(page, 'evidence/folders/');
    const item = await eventually('the item verified', async () => {
      const [found] = await itemsOfSituation(page, folders[0].id);
      return found?.status === 'verified' ? found : undefined;
    }, 90000);
    assert.equal(item.file_size, 120_000_000);
  });
});
