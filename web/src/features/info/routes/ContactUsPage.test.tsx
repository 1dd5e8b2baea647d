// The contact-us form: each rule's message in the browser, the body it posts, a server field error
// under its field, other server errors in the snackbar, success clears subject and message, and
// the profile prefills name and e-mail when signed in.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve } from '../../../testing';
import { ContactUsPage, SENT_MESSAGE } from './ContactUsPage';

afterEach(() => vi.unstubAllGlobals());

function open(store = makeTestStore({ signedIn: false })) {
  const view = renderAt(store, [{ path: '/contact-us', element: <ContactUsPage /> }], '/contact-us');
  return { ...view, store };
}

async function fill(values: { name?: string; email?: string; subject?: string; message?: string }) {
  const user = userEvent.setup();
  for (const [label, value] of [
    ['Name', values.name],
    ['Email', values.email],
    ['Subject', values.subject],
    ['Message', values.message],
  ] as const) {
    if (value === undefined) continue;
    const field = screen.getByLabelText(label);
    await user.clear(field);
    if (value.length > 40) {
      await user.click(field);
      await user.paste(value);
    } else if (value) {
      await user.type(field, value);
    }
  }
  await user.click(screen.getByRole('button', { name: 'Send' }));
}

const errorOf = (label: string) => {
  const field = screen.getByLabelText(label);
  const id = field.getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

describe('contact us', () => {
  it('shows every rule message and sends nothing', async () => {
    const calls = serve({});
    open();
    await fill({ name: '', email: '', subject: '', message: '' });
    expect(errorOf('Name')).toBe('This field is required');
    expect(errorOf('Email')).toBe('This field is required');
    expect(errorOf('Subject')).toBe('This field is required');
    expect(errorOf('Message')).toBe('This field is required');

    await fill({ name: 'A', email: 'ann@', subject: 'Hi', message: 'm'.repeat(2001) });
    expect(errorOf('Name')).toBe('Minimum 2 characters');
    expect(errorOf('Email')).toBe('Please enter a valid email address');
    expect(errorOf('Subject')).toBe('Minimum 3 characters');
    expect(errorOf('Message')).toBe('Maximum 2000 characters');

    await fill({ name: 'a'.repeat(151), subject: 's'.repeat(31) });
    expect(errorOf('Name')).toBe('Maximum 150 characters');
    expect(errorOf('Subject')).toBe('Maximum 30 characters');
    expect(calls).toEqual([]);
  }, 30000);

  it('posts the message without a session and clears subject and message on success', async () => {
    const calls = serve({ 'POST support/contact/': answer(202, {}) });
    const { store } = open();
    await fill({ name: 'Ann Lee', email: 'ann@example.com', subject: 'Upload stuck', message: 'My video stopped at 40%.' });
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, message: SENT_MESSAGE, type: 'info' }));
    expect(calls).toMatchObject([
      {
        method: 'POST',
        path: 'support/contact/',
        body: { name: 'Ann Lee', email: 'ann@example.com', subject: 'Upload stuck', message: 'My video stopped at 40%.' },
        idempotencyKey: null,
      },
    ]);
    expect(calls[0]?.headers.get('authorization')).toBeNull();
    expect(screen.getByLabelText('Subject')).toHaveValue('');
    expect(screen.getByLabelText('Message')).toHaveValue('');
    expect(screen.getByLabelText('Name')).toHaveValue('Ann Lee');
    expect(screen.getByLabelText('Email')).toHaveValue('ann@example.com');
  });

  it('puts a server field error under its field and keeps what was typed', async () => {
    serve({
      'POST support/contact/': answer(400, {
        errors: [{ message: 'Please enter a valid email address', code: 'invalid', field: 'email' }],
      }),
    });
    const { store } = open();
    await fill({ name: 'Ann Lee', email: 'ann@example.com', subject: 'Upload stuck', message: 'Help' });
    await waitFor(() => expect(errorOf('Email')).toBe('Please enter a valid email address'));
    expect(store.getState().snackbar.isShown).toBe(false);
    expect(screen.getByLabelText('Subject')).toHaveValue('Upload stuck');
  });

  it('shows the first server message of any other error in the snackbar (the hourly limit)', async () => {
    serve({
      'POST support/contact/': answer(429, { errors: [{ message: 'Too many messages. Please try again later.', code: 'rate_limited' }] }),
    });
    const { store } = open();
    await fill({ name: 'Ann Lee', email: 'ann@example.com', subject: 'Upload stuck', message: 'Help' });
    await waitFor(() =>
      expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'error', message: 'Too many messages. Please try again later.' }),
    );
    expect(screen.getByLabelText('Message')).toHaveValue('Help');
  });

  it('prefills name and e-mail from the profile when signed in', async () => {
    const calls = serve({ 'GET accounts/me/': { first_name: 'Ann', last_name: 'Lee', email: 'ann@example.com', username: 'ann' } });
    open(makeTestStore());
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveValue('Ann Lee'));
    expect(screen.getByLabelText('Email')).toHaveValue('ann@example.com');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET accounts/me/']);
  });

  it('does not ask for the profile when anonymous', () => {
    const calls = serve({});
    open();
    expect(screen.getByLabelText('Name')).toHaveValue('');
    expect(calls).toEqual([]);
  });
});
