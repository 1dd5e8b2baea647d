// Browser journey of organizations: an organization signs up through
// /sign-up-organization (e-mail code from the SMTP sink), invites a member by e-mail (the invite
// mail's /join-organization/CODE link) and an admin by SMS (the SMS sink), both join in their own
// browser contexts (the SMS invitee confirms the e-mail with a code), a used code is refused, the
// owner sees both on /organization-participants, changes a role and removes a participant.
// Headless Chromium through Envoy against the real stack.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { codeFor, eventually, launch, MAIL_DIR, PASSWORD, phone, signUp, skipOnboarding, smsFor, uniqueUser } from './support.mjs';

const INVITE_LINK = /\/join-organization\/([A-Z2-9]{8})/;

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

/** The text of the newest mail in the sink to `to` that contains `needle`. */
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

function inviteCodeIn(text) {
  const match = INVITE_LINK.exec(text);
  assert.ok(match, `no /join-organization/CODE link in:\n${text}`);
  return match[1];
}

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('organizations', () => {
  const owner = uniqueUser();
  const organizationName = `Acme ${Date.now().toString(36)}`;
  const member = uniqueUser();
  const admin = uniqueUser();
  let context;
  let page;
  let memberCode;
  const contexts = [];

  /** A fresh phone-width browser with no session. */
  async function visitor() {
    const fresh = await phone(browser);
    contexts.push(fresh);
    return fresh.newPage();
  }

  before(async () => {
    context = await phone(browser);
    page = await context.newPage();
  });
  after(async () => {
    for (const other of contexts) await other.close();
    await context?.close();
  });

  test('an organization signs up through /sign-up-organization with the e-mailed code', async () => {
    await page.goto('/sign-up');
    await page.getByRole('link', { name: 'Sign Up as an Organization' }).click();
    await page.waitForURL('**/sign-up-organization');
    await page.getByRole('heading', { level: 1, name: 'Sign Up as an Organization' }).waitFor();
    await page.getByLabel('Organization name').fill(organizationName);
    await page.getByLabel('Username').fill(owner.username);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Country code').selectOption('+1');
    await page.getByLabel('Phone number').fill(owner.phone);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    const code = await codeFor(owner.email);
    await page.getByLabel('Confirmation code').fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await skipOnboarding(page);
    await page.getByTestId('username').filter({ hasText: owner.username }).waitFor();
  });

  test('the Organization tab shows the organization and leads to its participants', async () => {
    await page.getByRole('link', { name: 'Organization', exact: true }).click();
    await page.waitForURL('**/dashboard/organization-captures');
    await page.getByTestId('organization-name').filter({ hasText: organizationName }).waitFor();
    // A new organization has no folders yet; the way to its capture templates is there.
    await page.getByText('No organization folders yet.').waitFor();
    await page.getByRole('link', { name: 'Capture Templates' }).waitFor();
    await page.getByRole('link', { name: 'Participants' }).click();
    await page.waitForURL('**/organization-participants');
    assert.equal(await page.getByTestId('my-role').innerText(), 'Owner');
    const self = page.getByTestId('participant').filter({ hasText: owner.email });
    await self.getByText('Owner', { exact: true }).waitFor();
    // The owner cannot remove themself.
    assert.equal(await self.getByRole('button', { name: /^Remove/ }).count(), 0);
  });

  test('the owner invites a member by e-mail; the mail carries the join link', async () => {
    await page.getByRole('button', { name: 'Invite Participant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite Participant' });
    assert.equal(await dialog.getByRole('radio', { name: 'By E-mail' }).isChecked(), true);
    assert.equal(await dialog.getByRole('radio', { name: 'Member' }).isChecked(), true);
    await dialog.getByLabel('Email').fill(member.email);
    await dialog.getByRole('button', { name: 'Send Invite' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByRole('status')
      .filter({ hasText: `Invite sent to ${member.email}.` })
      .waitFor();
    const pending = page.getByTestId('invite').filter({ hasText: member.email });
    await pending.getByText('Member', { exact: true }).waitFor();
    memberCode = inviteCodeIn(await mailTo(member.email, '/join-organization/'));
  });

  test('the invited member opens the link in another browser and joins', async () => {
    const guest = await visitor();
    await guest.goto(`/join-organization/${memberCode}`);
    await guest.getByRole('heading', { level: 1, name: `Join ${organizationName}` }).waitFor();
    assert.equal(await guest.getByTestId('invite-role').innerText(), 'Member');
    const email = guest.getByLabel('Email');
    assert.equal(await email.inputValue(), member.email);
    assert.equal(await email.getAttribute('readonly'), '');
    await guest.getByLabel('Username').fill(member.username);
    await guest.getByLabel('Country code').selectOption('+1');
    await guest.getByLabel('Phone number').fill(member.phone);
    await guest.getByLabel('Password').fill(PASSWORD);
    await guest.getByLabel('First name (optional)').fill('Bea');
    await guest.getByLabel('Last name (optional)').fill('Member');
    await guest.getByRole('button', { name: 'Join' }).click();
    await guest.waitForURL('**/dashboard/home');
    await guest.getByTestId('username').filter({ hasText: member.username }).waitFor();

    // A member sees the participants without any control.
    await guest.goto('/organization-participants');
    await guest.getByTestId('participant').filter({ hasText: owner.email }).waitFor();
    assert.equal(await guest.getByTestId('my-role').innerText(), 'Member');
    assert.equal(await guest.getByRole('button', { name: 'Invite Participant' }).count(), 0);
    assert.equal(await guest.getByRole('button', { name: /^Remove/ }).count(), 0);
    assert.equal(await guest.getByRole('combobox').count(), 0);
  });

  test('a used invite code is refused with the way back to the start screen', async () => {
    const late = await visitor();
    await late.goto(`/join-organization/${memberCode}`);
    await late.getByText('This invite has expired. Please ask for a new one.').waitFor();
    await late.getByRole('link', { name: 'Go to the Start Page' }).click();
    await late.waitForURL((url) => url.pathname === '/');
    await late.goto('/join-organization/ZZZZ2222');
    await late.getByText('This invite code is not valid.').waitFor();
  });

  test('the owner sees the new member in the list, no longer invited', async () => {
    await page.reload();
    const row = page.getByTestId('participant').filter({ hasText: member.email });
    await row.getByText('Bea Member').waitFor();
    assert.equal(await row.getByRole('combobox', { name: 'Role of Bea Member' }).inputValue(), 'member');
    assert.match(await row.innerText(), /Joined [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    assert.equal(await page.getByTestId('invite').filter({ hasText: member.email }).count(), 0);
  });

  test('the owner invites an admin by SMS; the invitee confirms the e-mail with a code and joins', async () => {
    await page.getByRole('button', { name: 'Invite Participant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite Participant' });
    await dialog.getByRole('radio', { name: 'By SMS' }).check();
    assert.equal(await dialog.getByLabel('Email').count(), 0);
    await dialog.getByLabel('Country code').selectOption('+1');
    await dialog.getByLabel('Phone number').fill(admin.phone);
    await dialog.getByRole('radio', { name: 'Admin' }).check();
    await dialog.getByRole('button', { name: 'Send Invite' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('invite').filter({ hasText: 'By SMS' }).filter({ hasText: admin.phone }).waitFor();
    const code = inviteCodeIn(await smsFor(`+1${admin.phone}`, '/join-organization/'));

    const guest = await visitor();
    await guest.goto(`/join-organization/${code}`);
    await guest.getByRole('heading', { level: 1, name: `Join ${organizationName}` }).waitFor();
    assert.equal(await guest.getByTestId('invite-role').innerText(), 'Admin');
    const invitedPhone = guest.getByLabel('Phone number');
    assert.match(await invitedPhone.inputValue(), new RegExp(`${admin.phone}$`));
    assert.equal(await invitedPhone.getAttribute('readonly'), '');
    await guest.getByLabel('Username').fill(admin.username);
    await guest.getByLabel('Email').fill(admin.email);
    await guest.getByLabel('Password').fill(PASSWORD);
    await guest.getByRole('button', { name: 'Join' }).click();
    await guest.getByRole('heading', { name: 'Confirm your e-mail' }).waitFor();
    await guest.getByLabel('Confirmation code').fill(await codeFor(admin.email));
    await guest.getByRole('button', { name: 'Confirm' }).click();
    await guest.waitForURL('**/dashboard/home');
    await guest.getByTestId('username').filter({ hasText: admin.username }).waitFor();

    // An admin invites (members only) and removes members, not the owner.
    await guest.goto('/organization-participants');
    await guest.getByTestId('participant').filter({ hasText: member.email }).waitFor();
    assert.equal(await guest.getByTestId('my-role').innerText(), 'Admin');
    await guest.getByRole('button', { name: 'Remove Bea Member' }).waitFor();
    assert.equal(await guest.getByRole('button', { name: `Remove ${owner.username}` }).count(), 0);
    await guest.getByRole('button', { name: 'Invite Participant' }).click();
    const adminDialog = guest.getByRole('dialog', { name: 'Invite Participant' });
    assert.equal(await adminDialog.getByRole('radio', { name: 'Admin' }).count(), 0);
    await adminDialog.getByRole('button', { name: 'Cancel' }).click();
  });

  test('the owner sees the admin, makes them a member, and removes the first member', async () => {
    await page.reload();
    const role = page.getByRole('combobox', { name: `Role of ${admin.username}` });
    await eventually('the SMS invitee listed as an admin', async () => (await role.count()) === 1 && (await role.inputValue()) === 'admin');
    await role.selectOption('member');
    await page
      .getByRole('status')
      .filter({ hasText: `${admin.username} is now Member.` })
      .waitFor();
    await page.reload();
    await eventually('the new role after a reload', async () => (await role.count()) === 1 && (await role.inputValue()) === 'member');

    await page.getByRole('button', { name: 'Remove Bea Member' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Participant?' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('status').filter({ hasText: 'Participant was removed.' }).waitFor();
    await eventually(
      'the member gone from the list',
      async () => (await page.getByTestId('participant').filter({ hasText: member.email }).count()) === 0,
    );
    assert.equal(await page.getByTestId('participant').count(), 2);
  });
});

describe('an individual account on the Organization tab', () => {
  const user = uniqueUser();
  let context;
  let page;

  before(async () => {
    context = await phone(browser);
    page = await context.newPage();
  });
  after(async () => context?.close());

  test('is told the tab is for organization accounts and can sign up as one after logging out', async () => {
    await signUp(page, user);

    await page.getByRole('link', { name: 'Organization', exact: true }).click();
    await page.getByRole('heading', { name: 'This is for organization accounts.' }).waitFor();
    await page.getByRole('button', { name: 'Sign Up as an Organization' }).click();
    await page.getByRole('dialog', { name: 'Log Out to Sign Up?' }).getByRole('button', { name: 'Log Out and Continue' }).click();
    await page.waitForURL('**/sign-up-organization');
    await page.getByLabel('Organization name').waitFor();
  });
});
