// The rental capture screen: section progress from the folder's items, the video intro screens
// (spec §2), the interior's 90-second confirmation (spec §9), and a Return beside its Pick-up.
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../../lib/format/format';
import { GUIDE_STEP_MS } from '../components/GuidePreview';
import { fakeEvidence, folder, item, renderRental } from '../testing/fakeEvidence';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const CAR_PICKUP = folder('f1', { kind: 'vehicle', vehicle_type: 'car', moment: 'pickup', pickup_folder_id: null }, 'Car Pick-up, Nov 21, 2026');
const HERE = '/vehicle-rental/capture?folderId=f1';

function evidenceQuery(router: { state: { location: { pathname: string; search: string } } }) {
  expect(router.state.location.pathname).toBe('/evidence');
  return Object.fromEntries(new URLSearchParams(router.state.location.search));
}

describe('rental capture screen', () => {
  it('shows each section\u2019s progress and thumbnails from the folder\u2019s items', async () => {
    fakeEvidence(
      [CAR_PICKUP],
      [
        item('b1', 'f1', 'body'),
        item('b2', 'f1', 'body', { status: 'awaiting_upload', thumbnail: null }),
        item('i1', 'f1', 'interior', { media_type: 'video' }),
        item('x1', 'f1', 'fuel', { media_type: 'video', status: 'rejected' }),
      ],
    );
    renderRental(HERE);
    expect(await screen.findByRole('heading', { name: 'Car Pick-up' })).toBeInTheDocument();
    expect(await screen.findByText('1 of 4 sections done')).toBeInTheDocument();
    const body = screen.getByRole('region', { name: 'Body' });
    expect(within(body).getByText('2 of 4 photos')).toBeInTheDocument();
    expect(within(body).getByRole('img', { name: 'capture-b1' })).toHaveAttribute('src', 'https://s3.test/b1.jpg');
    expect(within(body).getByText('Uploading')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Interior' })).getByText('Done')).toBeInTheDocument();
    const fuel = screen.getByRole('region', { name: 'Fuel' });
    expect(within(fuel).getByText('0 of 1 video')).toBeInTheDocument();
    expect(within(fuel).getByRole('alert')).toHaveTextContent('1 capture was rejected');
    expect(screen.getByRole('region', { name: 'Mileage' })).toBeInTheDocument();
  });

  it('Take Photos opens the capture screen for the folder and section, coming back here', async () => {
    const user = userEvent.setup();
    fakeEvidence([CAR_PICKUP]);
    const { router } = renderRental(HERE);
    const body = await screen.findByRole('region', { name: 'Body' });
    await user.click(within(body).getByRole('button', { name: 'Take Photos' }));
    expect(evidenceQuery(router)).toEqual({ situation: 'f1', section: 'body', mode: 'photo', returnTo: HERE });
  });

  it('the interior asks first about the 90 seconds, then shows its intro; "Don\u2019t show me this page again" is kept', async () => {
    const user = userEvent.setup();
    fakeEvidence([CAR_PICKUP]);
    const { router, store, unmount } = renderRental(HERE);
    await user.click(within(await screen.findByRole('region', { name: 'Interior' })).getByRole('button', { name: 'Take Video' }));

    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('The recommended recording time is under 90 seconds.');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Capture Interior Condition' })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Guide' })).getAllByRole('listitem').length).toBeGreaterThan(2);
    expect(screen.getByRole('button', { name: 'Play Video Guide' })).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: "Don't show me this page again" }));
    expect(store.getState().ui.hiddenIntros).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Take Video' }));
    expect(store.getState().ui.hiddenIntros).toEqual(['vehicle-interior']);
    expect(evidenceQuery(router)).toEqual({ situation: 'f1', section: 'interior', mode: 'video', returnTo: HERE });
    unmount();

    // Next time: no intro, but the recording-time confirmation still comes first.
    const again = renderRental(HERE, store);
    await user.click(within(await screen.findByRole('region', { name: 'Interior' })).getByRole('button', { name: 'Take Video' }));
    expect(screen.queryByRole('heading', { name: 'Capture Interior Condition' })).not.toBeInTheDocument();
    const confirm = screen.getByRole('dialog');
    expect(confirm).toHaveTextContent('The recommended recording time is under 90 seconds.');
    await user.click(within(confirm).getByRole('button', { name: 'Continue' }));
    expect(evidenceQuery(again.router)).toMatchObject({ section: 'interior', mode: 'video' });
  });

  it('Cancel on the recording-time dialog goes back to the sections', async () => {
    const user = userEvent.setup();
    fakeEvidence([CAR_PICKUP]);
    const { router } = renderRental(HERE);
    await user.click(within(await screen.findByRole('region', { name: 'Interior' })).getByRole('button', { name: 'Take Video' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: 'Car Pick-up' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?folderId=f1');
  });

  it('the mileage and fuel intros have no recording-time dialog; unticked, the intro shows again', async () => {
    const user = userEvent.setup();
    fakeEvidence([CAR_PICKUP]);
    const { router, store } = renderRental(HERE);
    await user.click(within(await screen.findByRole('region', { name: 'Mileage' })).getByRole('button', { name: 'Take Video' }));
    expect(screen.getByRole('heading', { name: 'Mileage' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(store.getState().ui.hiddenIntros).toEqual([]);
    await user.click(within(await screen.findByRole('region', { name: 'Fuel' })).getByRole('button', { name: 'Take Video' }));
    expect(screen.getByRole('heading', { name: 'Fuel' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Take Video' }));
    expect(evidenceQuery(router)).toMatchObject({ section: 'fuel', mode: 'video' });
  });

  it('Play Video Guide walks through the steps of the illustrated preview', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    fakeEvidence([CAR_PICKUP]);
    renderRental(`${HERE}&intro=mileage`);
    const caption = await screen.findByText(/^Step 1 of 4/);
    expect(caption.closest('figcaption')).toHaveTextContent('Switch the ignition on');
    await user.click(screen.getByRole('button', { name: 'Play Video Guide' }));
    expect(screen.getByRole('button', { name: 'Pause Video Guide' })).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(GUIDE_STEP_MS);
    });
    expect(screen.getByText(/^Step 2 of 4/)).toBeInTheDocument();
    for (let i = 0; i < 3; i += 1) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(GUIDE_STEP_MS);
      });
    }
    expect(screen.getByText(/^Step 4 of 4/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Play Video Guide' })).toBeInTheDocument();
  });

  it('a Return shows its Pick-up and Return captures side by side, section by section', async () => {
    const user = userEvent.setup();
    const ret = folder('r1', { kind: 'vehicle', vehicle_type: 'car', moment: 'return', pickup_folder_id: 'f1' }, 'Car Return, Nov 28, 2026');
    fakeEvidence(
      [CAR_PICKUP, ret],
      [
        item('pb', 'f1', 'body', { captured_at: '2026-11-21T09:05:00Z' }),
        item('pf', 'f1', 'fuel', { media_type: 'video', captured_at: '2026-11-21T09:15:00Z' }),
        item('rb', 'r1', 'body', { captured_at: '2026-11-28T17:40:00Z' }),
      ],
    );
    renderRental('/vehicle-rental/capture?folderId=r1');
    expect(await screen.findByRole('heading', { name: 'Car Return' })).toBeInTheDocument();
    expect(await screen.findByText('Car Pick-up, Nov 21, 2026')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Compare with Pick-up' }));

    expect(screen.getByRole('heading', { name: 'Compare with Pick-up' })).toBeInTheDocument();
    const body = await screen.findByRole('region', { name: 'Body' });
    const pickupBody = within(body).getByRole('list', { name: 'Pick-up captures' });
    const returnBody = within(body).getByRole('list', { name: 'Return captures' });
    expect(within(pickupBody).getByRole('img', { name: 'capture-pb' })).toBeInTheDocument();
    expect(within(pickupBody).getByText(formatDateTime('2026-11-21T09:05:00Z'))).toBeInTheDocument();
    expect(within(returnBody).getByRole('img', { name: 'capture-rb' })).toBeInTheDocument();
    expect(within(returnBody).getByText(formatDateTime('2026-11-28T17:40:00Z'))).toBeInTheDocument();
    const fuel = screen.getByRole('region', { name: 'Fuel' });
    expect(within(fuel).getByRole('list', { name: 'Pick-up captures' })).toBeInTheDocument();
    expect(within(fuel).getByText('No captures')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'Car Return' })).toBeInTheDocument();
  });

  it('a Pick-up lists its Returns and offers to start one', async () => {
    const ret = folder('r1', { kind: 'vehicle', vehicle_type: 'car', moment: 'return', pickup_folder_id: 'f1' }, 'Car Return, Nov 28, 2026');
    fakeEvidence([CAR_PICKUP, ret]);
    renderRental(HERE);
    expect(await screen.findByRole('link', { name: 'Car Return, Nov 28, 2026' })).toHaveAttribute('href', '/vehicle-rental/capture?folderId=r1');
    expect(screen.getByRole('link', { name: 'Start Return' })).toHaveAttribute('href', '/vehicle-rental?pickup=f1');
  });

  it('a hotel capture has the room sections and an optional walk-through video', async () => {
    const user = userEvent.setup();
    fakeEvidence([folder('h1', { kind: 'hotel', vehicle_type: null, moment: 'pickup', pickup_folder_id: null }, 'Hotel Check-in, Nov 21, 2026')]);
    const { router } = renderRental('/hotel-rental/capture?folderId=h1');
    expect(await screen.findByRole('heading', { name: 'Hotel Check-in' })).toBeInTheDocument();
    for (const name of ['Room', 'Bathroom', 'Bed', 'Furniture', 'Appliances', 'Damage']) {
      expect(screen.getByRole('region', { name })).toBeInTheDocument();
    }
    expect(within(screen.getByRole('region', { name: 'Damage' })).getByText('Optional')).toBeInTheDocument();
    await user.click(within(screen.getByRole('region', { name: 'Room' })).getByRole('button', { name: 'Record Walk-through Video' }));
    expect(evidenceQuery(router)).toEqual({
      situation: 'h1',
      section: 'room',
      mode: 'video',
      returnTo: '/hotel-rental/capture?folderId=h1',
    });
  });
});
