// Browser journeys of the CreditCard Wallet and checkout (spec §2 "Wallet screen",
// "CreditCard Wallet intro", §4 "Wallet create flow", "Wallet edit and top-up", §8 "Insufficient
// funds"). Cards are saved through the REST API and localstripe (the add-card screens are their
// own journey): a PaymentMethod made at localstripe, registered, set up with a SetupIntent the
// test confirms at localstripe. Everything else goes through the screens in headless Chromium.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { api, eventually, launch, phone, saveCard, signUp, uniqueUser } from './support.mjs';

const OK_CARD = '4242424242424242';
// Saves, but is declined when charged (the off-session decline).
const DECLINED_WHEN_CHARGED = '4000000000000341';
const AUTO_TOP_UP_THRESHOLD = 500;

const balanceOf = async (page) => (await api(page, 'GET', 'payments/evidentia-wallet/get/')).balance;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('CreditCard Wallet and checkout', () => {
  const user = uniqueUser();
  let context;
  let page;
  let card;

  before(async () => {
    context = await phone(browser);
    page = await context.newPage();
    await signUp(page, user);
    card = await saveCard(page, OK_CARD);
  });
  after(async () => context?.close());

  test('creates the CreditCard Wallet with $25 from the intro', async () => {
    // The saved card's $0.50 authorisation credit is no wallet balance: Home offers the wallet.
    await page.goto('/dashboard/home');
    await page.getByRole('link', { name: 'Create CreditCard Wallet' }).waitFor();
    assert.equal(await page.getByTestId('home-wallet-balance').count(), 0, 'no balance before a wallet');

    await page.goto('/dashboard/settings');
    await page.getByRole('link', { name: 'CreditCard Wallet' }).click();
    await page.waitForURL('**/stored-account');
    await page.getByRole('heading', { name: 'Create Your CreditCard Wallet' }).waitFor();
    await page.getByRole('button', { name: 'Create CreditCard Wallet' }).click();

    const form = page.getByRole('dialog', { name: 'Create CreditCard Wallet' });
    await form.getByRole('radio', { name: /4242/ }).check();
    await form.getByRole('button', { name: '$25' }).click();
    const submit = form.getByRole('button', { name: 'Transfer Money and Create CreditCard Wallet' });
    assert.equal(await submit.isDisabled(), true, 'both authorisations are needed');
    for (const box of await form.getByRole('checkbox').all()) await box.check();
    await submit.click();

    await page.waitForURL('**/wallet-congratulations', { timeout: 30000 });
    const account = await eventually('the wallet with its card and amount', async () => {
      const stored = await api(page, 'GET', 'payments/stored-account/get/');
      return stored.active && stored.payment_method_id === card.id ? stored : undefined;
    });
    assert.equal(account.auto_topping_up_amount, 2500);
    await eventually('the $25 credited by the webhook', async () => (await balanceOf(page)) >= 2500);
    await page.goto('/dashboard/home');
    await page.getByTestId('home-wallet-balance').waitFor();
  });

  test('tops the wallet up by $10', async () => {
    const before = await balanceOf(page);
    await page.goto('/stored-account');
    await page.getByRole('button', { name: 'Top-up' }).click();
    const form = page.getByRole('dialog', { name: 'Top-up CreditCard Wallet' });
    await form.getByRole('button', { name: '$10' }).click();
    await form.getByRole('button', { name: 'Top-up' }).click();
    await page.getByText('Your CreditCard Wallet has been topped-up.').waitFor({ timeout: 30000 });
    await eventually('the $10 credited', async () => (await balanceOf(page)) === before + 1000);
    await page.getByTestId('wallet-balance').filter({ hasText: `$${((before + 1000) / 100).toFixed(2)}` }).waitFor();
  });

  test("extends a folder's storage date at checkout, paying from the wallet", async () => {
    const folder = await api(page, 'POST', 'evidence/folders/create/', { name: `Extend ${Date.now().toString(36)}` });
    const before = await balanceOf(page);
    await page.goto(`/folder-view?folderId=${folder.id}`);
    await page.getByRole('link', { name: 'Extend Storage Date' }).click();
    await page.waitForURL(`**/extend-storage-date/${folder.id}`);
    await page.getByRole('button', { name: '3 months' }).click();
    const price = await api(page, 'POST', 'payments/storage-price-prolong/calculate/', { folder_id: folder.id, months: 3 });
    await page.getByTestId('new-storage-date').filter({ hasNotText: '—' }).waitFor();
    await page.getByRole('button', { name: 'Continue to Checkout' }).click();
    await page.waitForURL('**/checkout?**');

    const pay = page.getByRole('button', { name: `Pay $${(price.wallet_total / 100).toFixed(2)}` });
    await pay.waitFor();
    assert.equal(await page.getByRole('radio', { name: /CreditCard Wallet/ }).isChecked(), true, 'the wallet pays by default');
    await page.getByText(`saves $${(price.wallet_saving / 100).toFixed(2)} on service fees`).waitFor();
    await pay.click();
    await page.waitForURL('**/extend-storage-success?**', { timeout: 30000 });
    await page.getByTestId('extended-storage-date').filter({ hasNotText: '…' }).waitFor();

    const moved = await api(page, 'GET', `evidence/folders/${folder.id}/`);
    assert.equal(new Date(moved.expiration_date).toISOString(), new Date(price.new_storage_date).toISOString(), 'the storage date moved by 3 months');
    assert.equal(await balanceOf(page), before - price.wallet_total, 'the wallet paid the wallet total');
  });

  test('an auto top-up declined by the wallet card opens the insufficient-funds dialog', async () => {
    const declining = await saveCard(page, DECLINED_WHEN_CHARGED);
    await api(page, 'POST', 'payments/stored-account/update/', { auto_topping_up_amount: 1000, payment_method_id: declining.id });
    const folder = await api(page, 'POST', 'evidence/folders/create/', { name: `Top-up ${Date.now().toString(36)}` });
    const { storage } = await api(page, 'GET', 'payments/pricing/');
    const totals = [];
    for (const months of storage.months_options) {
      const price = await api(page, 'POST', 'payments/storage-price-prolong/calculate/', { folder_id: folder.id, months });
      totals.push({ months, total: price.wallet_total });
    }
    // Spend down to just above the threshold, then one purchase that ends under $5.00 (never short,
    // so no card charge is needed for the purchase itself).
    const pay = (months) =>
      api(page, 'POST', 'payments/stored-account/pay/', { kind: 'storage_extension', folder_id: folder.id, months, pay_with: 'wallet' }, { 'Idempotency-Key': randomUUID() });
    for (;;) {
      const balance = await balanceOf(page);
      const last = totals.find(({ total }) => balance - total >= 0 && balance - total < AUTO_TOP_UP_THRESHOLD);
      if (last) {
        await page.goto(`/checkout?kind=storage_extension&folderId=${folder.id}&months=${last.months}`);
        await page.getByRole('button', { name: `Pay $${(last.total / 100).toFixed(2)}` }).click();
        await page.waitForURL('**/extend-storage-success?**', { timeout: 30000 });
        break;
      }
      const spend = [...totals].reverse().find(({ total }) => balance - total >= AUTO_TOP_UP_THRESHOLD);
      assert.ok(spend, `no purchase leads from ${balance} cents to under $5.00`);
      await pay(spend.months);
    }

    await eventually('the declined auto top-up', async () => (await api(page, 'GET', 'payments/stored-account/get/')).top_up_error, 30000);
    await page.goto('/dashboard/home');
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    assert.equal(await page.getByText('Insufficient Funds on your credit card').count(), 0, 'only on stored-account and checkout');

    await page.goto('/stored-account');
    const dialog = page.getByRole('dialog', { name: 'Insufficient Funds on your credit card' });
    await dialog.waitFor();
    assert.match(await dialog.textContent(), /ending in 0341 has insufficient funds to AutoLoad/);
    await dialog.getByRole('button', { name: 'Change Payment Method' }).click();
    await page.getByRole('dialog', { name: 'Top-up CreditCard Wallet' }).waitFor();
  });
});
