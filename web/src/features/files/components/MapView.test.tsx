// The map without a tile source says so and still shows the markers, each with its count.
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MapView, NO_TILES_NOTE, type MapMarker } from './MapView';

const markers: MapMarker[] = [
  { id: 'f1', position: [52.5, 13.4], label: 'Car rental', count: 3, popup: 'Car rental' },
  { id: 'f2', position: [48.1, 11.6], label: 'Flat check-in', count: 1, popup: 'Flat check-in' },
];

describe('the map', () => {
  it('says no tile source is configured and shows every marker with its number of files', async () => {
    const { container } = render(<MapView label="Folders map" markers={markers} tileUrl="" />);
    expect(screen.getByTestId('no-tiles')).toHaveTextContent(NO_TILES_NOTE);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Car rental, 3 files' })).toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Flat check-in, 1 file' })).toBeInTheDocument();
    const counts = Array.from(container.querySelectorAll('.files-map__count')).map((el) => el.textContent);
    expect(counts).toEqual(['3', '1']);
  });

  it('draws tiles and says nothing of them when a source is configured', () => {
    const { container } = render(<MapView label="Folders map" markers={markers} tileUrl="https://tiles.example/{z}/{x}/{y}.png" />);
    expect(screen.queryByTestId('no-tiles')).toBeNull();
    expect(container.querySelector('.leaflet-tile-pane')?.childElementCount).toBeGreaterThan(0);
  });
});
