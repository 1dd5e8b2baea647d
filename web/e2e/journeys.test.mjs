// Browser journeys of the first slice, in headless Chromium through Envoy against the real stack.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually, launch, PASSWORD, phone, signUp, storedLoginInfo, uniqueUser } from './support.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('sign up, stay signed in, log out', () => {
  const user = uniqueUser();
  let context;
  let page;

  before(async () => {
    context = await phone(browser);
    page = await context.newPage();
  });
  after(async () => context?.close());

  test('signs up with the code from the e-mail, is led through the walkthrough and the payment details setup (both skipped) to the dashboard', async () => {
    await signUp(page, user);
    assert.match(page.url(), /\/dashboard\/home$/);
  });

  test('a reload keeps the user signed in', async () => {
    await page.reload();
    await page.getByTestId('username').filter({ hasText: user.username }).waitFor();
    assert.match(page.url(), /\/dashboard\/home$/);
  });

  test('an expired access token is refreshed silently', async () => {
    const before = await storedLoginInfo(page);
    // An expired token of the right shape: the gateway answers 401, the app refreshes once.
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: '00000000-0000-0000-0000-000000000000', exp: 1 })).toString('base64url');
    const expired = `${header}.${payload}.c2lnbmF0dXJl`;
    await page.evaluate((token) => {
      const root = JSON.parse(localStorage.getItem('persist:evidentia'));
      const info = JSON.parse(root.loginInfo);
      info.accessToken = token;
      root.loginInfo = JSON.stringify(info);
      localStorage.setItem('persist:evidentia', JSON.stringify(root));
    }, expired);
    await page.reload();
    await page.getByTestId('username').filter({ hasText: user.username }).waitFor();
    const after = await eventually('the refreshed session to be stored', async () => {
      const info = await storedLoginInfo(page);
      return info?.accessToken && info.accessToken !== expired ? info : undefined;
    });
    assert.notEqual(after.refreshToken, before.refreshToken, 'the refresh token rotated');
    assert.match(page.url(), /\/dashboard\/home$/);
  });

  test('log out returns to the start screen and ends the session', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/dashboard/settings');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    // redux-persist writes after the state changes: poll rather than read once.
    await eventually('the session to be cleared on the device', async () => ((await storedLoginInfo(page))?.accessToken ? undefined : true));
    await page.goto('/dashboard/home');
    await page.waitForURL((url) => url.pathname === '/');
  });

  test('logs in again and returns to the page it was sent away from', async () => {
    await page.goto('/events-history');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'Log In' }).click();
    await page.getByLabel('Username or Email').fill(user.username);
    await page.getByLabel('Password').fill('Wrong12#pass');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Wrong Password. Please try again').waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL('**/events-history');
    await page.getByRole('heading', { name: 'Events History' }).waitFor();
    // The page stays: the guard once passed through it and went on to Home.
    await page.waitForLoadState('networkidle');
    assert.equal(new URL(page.url()).pathname, '/events-history');
    assert.equal(await page.getByTestId('username').count(), 0, 'not on Home');
  });

  test('access rules redirect (spec §2)', async () => {
    await page.goto('/log-in');
    await page.waitForURL('**/dashboard/home');
    await page.goto('/no/such/page');
    await page.waitForURL((url) => url.pathname === '/');
    await page.waitForURL('**/dashboard/home');
    const anonymous = await phone(browser);
    const visitor = await anonymous.newPage();
    await visitor.goto('/dashboard/settings');
    await visitor.waitForURL((url) => url.pathname === '/');
    await visitor.goto('/unknown-route');
    await visitor.waitForURL((url) => url.pathname === '/');
    await visitor.getByRole('link', { name: 'Sign Up' }).waitFor();
    await anonymous.close();
  });

  test('sign-up with referred=true logs a signed-in user out and shows the form', async () => {
    await page.goto('/sign-up?referred=true');
    await page.getByRole('heading', { name: 'Sign Up' }).waitFor();
    await eventually('the session to end', async () => ((await storedLoginInfo(page))?.accessToken ? undefined : true));
  });
});

describe('offline', () => {
  test('the app shell loads offline and says the network is lost', async () => {
    const context = await phone(browser);
    const page = await context.newPage();
    await page.goto('/');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // The page is controlled once the service worker has claimed it (after a reload at latest).
    await page.reload();
    await eventually('the service worker to control the page', () => page.evaluate(() => Boolean(navigator.serviceWorker.controller)));
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('link', { name: 'Sign Up' }).waitFor();
    await page.getByText('The network connection is poor or was lost.').waitFor();
    await page.getByRole('button', { name: 'More help' }).click();
    await page.getByText('can be uploaded once the network returns').waitFor();
    await context.close();
  });
});
