// spec §4 "Vehicle rental steps": TypeOfRental (Pick-up or Return, a Return linked to a Pick-up),
// then SelectVehicle; then the rental folder is created and its capture screen opens.
import { formatDateTime } from '../../../lib/format/format';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '../../../lib/format/format';
import { fakeEvidence, folder, renderRental } from '../testing/fakeEvidence';

afterEach(() => vi.unstubAllGlobals());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('vehicle rental steps', () => {
  it('a Pick-up: TypeOfRental, SelectVehicle, then the folder is created and its capture screen opens', async () => {
    const user = userEvent.setup();
    const { created } = fakeEvidence([]);
    renderRental('/vehicle-rental');
    expect(screen.getByRole('heading', { name: 'Vehicle Rental' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: 'Pick-up' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(screen.getByRole('heading', { name: 'Select Vehicle' })).toBeInTheDocument();
    expect(screen.getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual(['car', 'suv', 'watercraft', 'trailer', 'truck']);
    expect(screen.getByRole('button', { name: 'Start Capture' })).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: 'Car' }));
    await user.click(screen.getByRole('button', { name: 'Start Capture' }));

    await screen.findByRole('heading', { name: 'Car Pick-up' });
    expect(created).toHaveLength(1);
    expect(created[0]).toEqual({
      name: `Car Pick-up, ${formatDate(new Date())}`,
      client_id: expect.stringMatching(UUID),
      rental: { kind: 'vehicle', vehicle_type: 'car', moment: 'pickup' },
    });
  });

  it('a Return lists only earlier vehicle Pick-ups, takes the chosen one\u2019s vehicle, and Back walks the steps', async () => {
    const user = userEvent.setup();
    const { created } = fakeEvidence([
      folder('p-car', { kind: 'vehicle', vehicle_type: 'suv', moment: 'pickup', pickup_folder_id: null }, 'SUV Pick-up, Nov 1, 2026'),
      folder('r-car', { kind: 'vehicle', vehicle_type: 'suv', moment: 'return', pickup_folder_id: 'p-car' }, 'SUV Return, Nov 8, 2026'),
      folder('p-hotel', { kind: 'hotel', vehicle_type: null, moment: 'pickup', pickup_folder_id: null }, 'Hotel Check-in, Nov 2, 2026'),
      folder('plain', null, 'Holiday'),
    ]);
    const { router } = renderRental('/vehicle-rental');
    await user.click(screen.getByRole('radio', { name: 'Return' }));
    const pickup = await screen.findByRole('radio', { name: /SUV Pick-up, Nov 1, 2026/ });
    // Two Pick-ups of one day differ by the time they were started (in the display zone).
    expect(screen.getByText(`Started ${formatDateTime('2026-11-20T10:00:00Z')}`)).toBeInTheDocument();
    expect(formatDateTime('2026-11-20T10:00:00Z', 'UTC')).toBe('Nov 20, 2026 · 10:00');
    expect(screen.queryByRole('radio', { name: /Return, Nov 8/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /Hotel/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /Holiday/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();

    await user.click(pickup);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByRole('radio', { name: 'SUV' })).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('heading', { name: 'Vehicle Rental' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Return' })).toBeChecked();
    expect(screen.getByRole('radio', { name: /SUV Pick-up/ })).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(screen.getByRole('button', { name: 'Start Capture' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/vehicle-rental/capture'));
    expect(router.state.location.search).toBe('?folderId=new-1');
    expect(created[0]).toMatchObject({ rental: { kind: 'vehicle', vehicle_type: 'suv', moment: 'return', pickup_folder_id: 'p-car' } });
  });

  it('a Return with no earlier Pick-up says so and cannot continue', async () => {
    const user = userEvent.setup();
    fakeEvidence([]);
    renderRental('/vehicle-rental');
    await user.click(screen.getByRole('radio', { name: 'Return' }));
    expect(await screen.findByText(/You have no vehicle Pick-up captures yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
  });

  it('a hotel check-in is created straight from TypeOfRental', async () => {
    const user = userEvent.setup();
    const { created } = fakeEvidence([]);
    renderRental('/hotel-rental');
    expect(screen.queryByText(/Step 1 of/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Check-in' }));
    await user.click(screen.getByRole('button', { name: 'Start Capture' }));
    await screen.findByRole('heading', { name: 'Hotel Check-in' });
    expect(created[0]).toMatchObject({ rental: { kind: 'hotel', moment: 'pickup' } });
    expect(created[0]).not.toHaveProperty('rental.vehicle_type');
  });
});
