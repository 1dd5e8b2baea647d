// /change-address: prefilled from the profile, the §5 address messages, a place from the picker,
// the body it sends, server field errors under their fields, and success back to account info.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, type ApiCall, apiProfile, renderAt, serve } from '../../../testing';
import { EMPTY_DETAILS, type PlacesProvider } from '../../../lib/places';
import { makeAccountStore } from '../testing/helpers';
import { ChangeAddressPage } from './ChangeAddressPage';

let stopZone = () => {};
afterEach(() => {
  stopZone();
  vi.unstubAllGlobals();
});

const provider: PlacesProvider = {
  suggest: vi.fn(async () => [{ id: 'FR|IDF|Paris', city: 'Paris', country: 'France', region: 'Île-de-France', label: 'Paris, France' }]),
  details: vi.fn(async () => ({
    ...EMPTY_DETAILS,
    country: 'France',
    countryCode: 'FR',
    locality: 'Paris',
    administrativeArea1: 'Ile de France',
  })),
};

async function open() {
  const { store, stop } = makeAccountStore();
  stopZone = stop;
  const view = renderAt(
    store,
    [
      { path: '/change-address', element: <ChangeAddressPage provider={provider} /> },
      { path: '/account-info', element: <h1>Account Info page</h1> },
    ],
    '/change-address',
  );
  await waitFor(() => expect(screen.getByLabelText('Street')).toHaveValue('Unter den Linden'));
  return { store, router: view.router };
}

const errorOf = (label: string) => {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

async function fill(values: Record<string, string>) {
  const user = userEvent.setup();
  for (const [label, value] of Object.entries(values)) {
    const field = screen.getByLabelText(label);
    await user.clear(field);
    if (value) await user.type(field, value);
  }
}

const save = () => userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));

describe('change address', () => {
  it('is prefilled from the profile', async () => {
    serve({ 'GET accounts/me/': apiProfile() });
    await open();
    expect(screen.getByLabelText('Country')).toHaveValue('Germany');
    expect(screen.getByLabelText('Province')).toHaveValue('Berlin');
    expect(screen.getByLabelText('House')).toHaveValue('5');
    expect(screen.getByLabelText('Unit/Suite')).toHaveValue('');
    expect(screen.getByLabelText('City')).toHaveValue('Berlin');
    expect(screen.getByLabelText('Zip Code')).toHaveValue('10117');
    expect(screen.getByText('All fields except Unit/Suite are required.')).toBeInTheDocument();
  });

  it('shows the §5 address messages and sends nothing', async () => {
    const calls = serve({ 'GET accounts/me/': apiProfile() });
    await open();
    await fill({
      Country: '',
      Street: 'S',
      House: '1234567890',
      City: 'Berlin 2',
      Province: 'p'.repeat(31),
      'Zip Code': '',
      'Unit/Suite': '1234567890',
    });
    await save();
    expect(errorOf('Country')).toBe('This field is required');
    expect(errorOf('Street')).toBe('Minimum 2 characters');
    expect(errorOf('House')).toBe('Maximum 9 characters');
    expect(errorOf('City')).toBe('Incorrect input. Only letters allowed');
    expect(errorOf('Province')).toBe('Maximum 30 characters');
    expect(errorOf('Zip Code')).toBe('This field is required');
    expect(errorOf('Unit/Suite')).toBe('Maximum 9 characters');
    await fill({ Country: 'G'.repeat(51) });
    await save();
    expect(errorOf('Country')).toBe('Maximum 50 characters');
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('saves the address with the request field names and returns to account info', async () => {
    const calls = serve({ 'GET accounts/me/': apiProfile(), 'PATCH accounts/address/change/': {} });
    const { store, router } = await open();
    await fill({ Street: 'Friedrichstraße', House: '12a', 'Unit/Suite': '3' });
    await save();
    await waitFor(() => expect(router.state.location.pathname).toBe('/account-info'));
    expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'success', message: 'Your address was changed.' });
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([
      {
        method: 'PATCH',
        path: 'accounts/address/change/',
        body: {
          country: 'Germany',
          apartment_number: '3',
          province: 'Berlin',
          street: 'Friedrichstraße',
          house: '12a',
          city: 'Berlin',
          zip_code: '10117',
        },
        idempotencyKey: null,
      },
    ]);
  });

  it('fills the fields from a place chosen in the picker', async () => {
    const calls = serve({ 'GET accounts/me/': apiProfile(), 'PATCH accounts/address/change/': {} });
    await open();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Find Your Address/ }));
    await user.type(screen.getByRole('searchbox', { name: 'Type your Address' }), 'Par');
    await user.click(await screen.findByRole('button', { name: /Paris, France/ }, { timeout: 3000 }));
    await waitFor(() => expect(screen.getByLabelText('City')).toHaveValue('Paris'));
    // A city has no street, house or zip code: the picker clears them (spec §4).
    expect(screen.getByLabelText('Street')).toHaveValue('');
    await fill({ Street: 'Rue de Rivoli', House: '1', 'Zip Code': '75001' });
    await save();
    await waitFor(() =>
      expect(calls.find((c: ApiCall) => c.method === 'PATCH')?.body).toEqual({
        country: 'France',
        apartment_number: '',
        province: 'Ile de France',
        street: 'Rue de Rivoli',
        house: '1',
        city: 'Paris',
        zip_code: '75001',
      }),
    );
  }, 15000); // the picker searches 1000 ms after typing stops

  it("puts the server's field errors under their fields and stays", async () => {
    serve({
      'GET accounts/me/': apiProfile(),
      'PATCH accounts/address/change/': answer(400, {
        errors: [
          { message: 'Maximum 9 characters', field: 'zip_code' },
          { message: 'Incorrect input. Only letters allowed', field: 'province' },
        ],
      }),
    });
    const { store, router } = await open();
    await save();
    await waitFor(() => expect(errorOf('Zip Code')).toBe('Maximum 9 characters'));
    expect(errorOf('Province')).toBe('Incorrect input. Only letters allowed');
    expect(router.state.location.pathname).toBe('/change-address');
    expect(store.getState().snackbar.isShown).toBe(false);
  });

  it('shows any other error in the snackbar', async () => {
    serve({
      'GET accounts/me/': apiProfile(),
      'PATCH accounts/address/change/': answer(429, { errors: [{ message: 'Too many requests. Please try again later.' }] }),
    });
    const { store } = await open();
    await save();
    await waitFor(() =>
      expect(store.getState().snackbar).toMatchObject({
        isShown: true,
        type: 'error',
        message: 'Too many requests. Please try again later.',
      }),
    );
  });
});
