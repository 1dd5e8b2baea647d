import { zodResolver } from '@hookform/resolvers/zod';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { EMPTY_DETAILS, type PlacesProvider } from '../../lib/places';
import { AddressForm } from './AddressForm';
import { AddressPicker } from './AddressPicker';
import { addressSchema, EMPTY_ADDRESS, type Address } from './rules';

const provider: PlacesProvider = {
  suggest: vi.fn(async (q: string) =>
    q.toLowerCase().startsWith('par')
      ? [{ id: 'FR|IDF|Paris', city: 'Paris', country: 'France', region: 'Île-de-France', label: 'Paris, France' }]
      : [],
  ),
  details: vi.fn(async () => ({
    ...EMPTY_DETAILS,
    country: 'France',
    countryCode: 'FR',
    locality: 'Paris',
    administrativeArea1: 'Île-de-France',
  })),
};

describe('the address picker', () => {
  it('lists suggestions as city plus country after the debounce, or says nothing was found', async () => {
    const onSelect = vi.fn();
    render(<AddressPicker provider={provider} debounceMs={10} onSelect={onSelect} onClose={() => {}} />);
    expect(screen.getByRole('heading', { name: 'Type your Address' })).toBeInTheDocument();
    const input = screen.getByRole('searchbox', { name: 'Type your Address' });
    expect(input).toHaveAttribute('maxLength', '200');
    await userEvent.type(input, 'xyz');
    expect(await screen.findByText('No Result Found')).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your search words.')).toBeInTheDocument();
    await userEvent.clear(input);
    await userEvent.type(input, 'Par');
    await userEvent.click(await screen.findByRole('button', { name: /Paris, France/ }));
    await waitFor(() =>
      expect(onSelect).toHaveBeenCalledWith(
        expect.objectContaining({ locality: 'Paris' }),
        expect.objectContaining({ label: 'Paris, France' }),
      ),
    );
  });

  it('searches once per pause in typing', async () => {
    vi.mocked(provider.suggest).mockClear();
    render(<AddressPicker provider={provider} debounceMs={50} onSelect={() => {}} onClose={() => {}} />);
    await userEvent.type(screen.getByRole('searchbox'), 'Paris');
    await screen.findByRole('button', { name: /Paris, France/ });
    expect(provider.suggest).toHaveBeenCalledTimes(1);
    expect(provider.suggest).toHaveBeenCalledWith('Paris');
  });
});

function Harness({ initial }: { initial: Address }) {
  const form = useForm<Address>({ resolver: zodResolver(addressSchema()), defaultValues: initial, mode: 'onChange' });
  const values = useWatch({ control: form.control });
  return (
    <FormProvider {...form}>
      <AddressForm provider={provider} />
      <output data-testid="values">{JSON.stringify(values)}</output>
    </FormProvider>
  );
}

describe('the address form', () => {
  it('shows the find field, divider and banner, and fills from a place clearing the rest', async () => {
    render(<Harness initial={{ ...EMPTY_ADDRESS, street: 'Old Street', house: '9', apartmentNumber: '2', zipCode: '11111' }} />);
    expect(screen.getByText('Or Type Manually')).toBeInTheDocument();
    expect(screen.getByText('All fields except Unit/Suite are required.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Find Your Address/ }));
    await userEvent.type(screen.getByRole('searchbox'), 'par');
    await userEvent.click(await screen.findByRole('button', { name: /Paris, France/ }, { timeout: 3000 }));
    await waitFor(() =>
      expect(JSON.parse(screen.getByTestId('values').textContent ?? '{}')).toEqual({
        foundAddress: 'Paris, France',
        country: 'France',
        province: 'Île-de-France',
        city: 'Paris',
        street: '',
        house: '',
        apartmentNumber: '',
        zipCode: '',
      }),
    );
    expect(screen.getByLabelText('Country')).toHaveValue('France');
    expect(await screen.findAllByText('This field is required')).toHaveLength(3);
  });

  // spec §5 Postal patterns
  it('formats the zip code of a country with a postal pattern as it is typed and asks for all of it', async () => {
    render(<Harness initial={{ ...EMPTY_ADDRESS, country: 'Canada' }} />);
    const zip = screen.getByLabelText('Zip Code');
    expect(zip).toHaveAttribute('maxLength', '7');
    expect(zip).toHaveAttribute('placeholder', '___ ___');
    await userEvent.type(zip, 'k1a-0b');
    expect(zip).toHaveValue('K1A 0B');
    expect(await screen.findByText('Invalid zip code format')).toBeInTheDocument();
    await userEvent.type(zip, '1');
    expect(zip).toHaveValue('K1A 0B1');
    await waitFor(() => expect(screen.queryByText('Invalid zip code format')).not.toBeInTheDocument());
    expect(JSON.parse(screen.getByTestId('values').textContent ?? '{}')).toMatchObject({ zipCode: 'K1A 0B1' });
  });

  it('leaves the zip code of other countries as typed, and checks it again when the country changes', async () => {
    render(<Harness initial={{ ...EMPTY_ADDRESS, country: 'Canada' }} />);
    const zip = screen.getByLabelText('Zip Code');
    await userEvent.type(zip, '12');
    expect(await screen.findByText('Invalid zip code format')).toBeInTheDocument();
    const country = screen.getByLabelText('Country');
    await userEvent.clear(country);
    await userEvent.type(country, 'Germany');
    await waitFor(() => expect(screen.queryByText('Invalid zip code format')).not.toBeInTheDocument());
    expect(zip).toHaveAttribute('maxLength', '10');
    expect(zip).not.toHaveAttribute('placeholder');
    await userEvent.type(zip, '-ab 5');
    expect(zip).toHaveValue('12-ab 5');
  });
});
