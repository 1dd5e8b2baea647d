// Lighthouse (mobile: its emulated phone, slow 4G and 4x slower CPU) against the built app served
// by a running stack: the start and log-in screens signed out, then home and My Files signed in as
// a new user with three folders. Each screen must score at least GOAL for performance; the script
// exits 1 when one does not. It prints the figures, then RESULT lines for ./dev bench.
//
// Run with the stack up (./dev up or ./dev bench): `node scripts/lighthouse.mjs [OUT_DIR]`, where
// OUT_DIR (optional; under ./dev bench its log directory) receives each screen's whole Lighthouse
// report as JSON. Environment:
// E2E_BASE_URL (http://127.0.0.1:8080), MAIL_DIR (.dev/mail, for the sign-up code), CHROME_PATH.
//
// The signed-in screens keep the session (localStorage) between Lighthouse's loads, but the
// service worker, its caches and the browser's HTTP cache are emptied first: each figure is of a
// load from the network, not from what a returning visitor has.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { api, BASE_URL, signUp, uniqueUser } from '../e2e/support.mjs';

const GOAL = 0.95;
const outDir = process.argv[2] ?? (process.env.BENCH_LOGS ? path.join(process.env.BENCH_LOGS, 'lighthouse') : undefined);

// One Chromium for both: Lighthouse drives it by its debugging port, Playwright (signing up, the
// folders) through the same port, in its default context, so both see one session.
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'evidentia-lighthouse-'));
const chrome = spawn(
  process.env.CHROME_PATH ?? '/usr/bin/chromium',
  [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-sync',
    '--disable-quic',
    `--user-data-dir=${profile}`,
    // Any free port: Chromium writes the one it took into DevToolsActivePort.
    '--remote-debugging-port=0',
    'about:blank',
  ],
  { stdio: 'ignore' },
);
async function debuggingPort() {
  const file = path.join(profile, 'DevToolsActivePort');
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const port = fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8').split('\n')[0]) : 0;
    if (port > 0) return port;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('Chromium did not open its debugging port');
}
const PORT = await debuggingPort();
const browser = await chromium.connectOverCDP(`http://127.0.0.1:${PORT}`);
const context = browser.contexts()[0];

const rows = [];
const failures = [];

/** Back to a first visit's network, keeping the session: no service worker, no cached files. */
async function forgetCaches(page) {
  await page.evaluate(async () => {
    for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
    for (const name of await globalThis.caches.keys()) await globalThis.caches.delete(name);
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
}

async function audit(name, route, { keepSession }) {
  const result = await lighthouse(
    new URL(route, BASE_URL).href,
    {
      port: PORT,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      disableStorageReset: keepSession,
    },
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${route}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse could not load ${route}: ${lhr.runtimeError.message}`);
  if (new URL(lhr.finalDisplayedUrl).pathname !== route) {
    throw new Error(`${route} ended at ${lhr.finalDisplayedUrl}: the screen measured is not the one named`);
  }
  const score = (category) => lhr.categories[category].score;
  const ms = (audit) => lhr.audits[audit].numericValue;
  const performance = score('performance');
  const js = lhr.audits['network-requests'].details.items
    .filter((item) => item.resourceType === 'Script')
    .reduce((sum, item) => sum + item.transferSize, 0);
  console.log(
    `${name} (${route}): performance ${performance.toFixed(2)}, accessibility ${score('accessibility').toFixed(2)}, ` +
      `best practices ${score('best-practices').toFixed(2)}; FCP ${(ms('first-contentful-paint') / 1000).toFixed(2)} s, ` +
      `LCP ${(ms('largest-contentful-paint') / 1000).toFixed(2)} s, TBT ${ms('total-blocking-time').toFixed(0)} ms, ` +
      `CLS ${ms('cumulative-layout-shift').toFixed(3)}, speed index ${(ms('speed-index') / 1000).toFixed(2)} s; ` +
      `scripts transferred ${(js / 1000).toFixed(1)} kB`,
  );
  rows.push(
    [
      'RESULT',
      `Lighthouse mobile performance, ${name}`,
      `${performance.toFixed(2)} (LCP ${(ms('largest-contentful-paint') / 1000).toFixed(1)} s, TBT ${ms('total-blocking-time').toFixed(0)} ms, JS ${(js / 1000).toFixed(0)} kB)`,
      `${GOAL.toFixed(2)} (the goal)`,
      `${(performance / GOAL).toFixed(2)}x`,
    ].join('\t'),
  );
  if (performance < GOAL) failures.push(`${name} (${route}) scored ${performance.toFixed(2)} for performance, under ${GOAL}`);
  if (outDir) {
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, `lighthouse-${name.replace(/\W+/g, '-').toLowerCase()}.json`), result.report);
  }
}

try {
  await audit('start', '/', { keepSession: false });
  await audit('log in', '/log-in', { keepSession: false });

  const page = await context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  // The journeys' helpers name paths ('/'), which their contexts resolve against BASE_URL; this
  // context is Chromium's default one, which has no base URL.
  const goto = page.goto.bind(page);
  page.goto = (url, options) => goto(new URL(url, BASE_URL).href, options);
  await signUp(page, uniqueUser());
  for (const name of ['Kitchen leak', 'Car rental, June', 'Deposit photos']) {
    await api(page, 'POST', 'evidence/folders/create/', { name });
  }
  await forgetCaches(page);
  await audit('home', '/dashboard/home', { keepSession: true });
  await forgetCaches(page);
  await audit('My Files', '/dashboard/my-files', { keepSession: true });
} finally {
  await browser.close().catch(() => {});
  const exited = new Promise((resolve) => chrome.once('exit', resolve));
  chrome.kill();
  await exited;
  fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
}

for (const row of rows) console.log(row);
for (const failure of failures) console.error(`lighthouse: ${failure}`);
process.exit(failures.length > 0 ? 1 : 0);
