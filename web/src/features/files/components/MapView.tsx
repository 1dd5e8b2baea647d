//! A Leaflet map without image assets: circle markers that show how many files they stand for, and
//! a tile layer only when one is configured (`VITE_MAP_TILE_URL`, empty by default: the local stack
//! has no internet). Without one the map says so, and the markers show anyway.
import 'leaflet/dist/leaflet.css';
import type { Path } from 'leaflet';
import { useEffect, type ReactNode } from 'react';
import { CircleMarker, MapContainer, Popup, TileLayer, Tooltip, useMap } from 'react-leaflet';
import type { LatLng } from '../model/geo';

declare global {
  interface ImportMetaEnv {
    /** A Leaflet tile URL template, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png. */
    readonly VITE_MAP_TILE_URL?: string;
    readonly VITE_MAP_TILE_ATTRIBUTION?: string;
  }
}

export const TILE_URL = (import.meta.env.VITE_MAP_TILE_URL ?? '').trim();
const TILE_ATTRIBUTION = import.meta.env.VITE_MAP_TILE_ATTRIBUTION ?? '';
const WORLD: LatLng = [20, 0];

/** What the map says when it has no tiles to draw. */
export const NO_TILES_NOTE = 'No map tile source is configured, so the map shows no streets or places: only the markers, each with its number of files.';

export interface MapMarker {
  id: string;
  position: LatLng;
  label: string;
  popup: ReactNode;
  /** How many files the marker stands for, written on it. */
  count: number;
}

const filesLabel = (count: number) => `${count} ${count === 1 ? 'file' : 'files'}`;

/** Keeps every marker in view. */
function FitBounds({ positions }: { positions: LatLng[] }) {
  const map = useMap();
  const key = JSON.stringify(positions);
  useEffect(() => {
    const all = JSON.parse(key) as LatLng[];
    if (all.length === 1 && all[0]) map.setView(all[0], 14);
    else if (all.length > 1) map.fitBounds(all, { padding: [32, 32], maxZoom: 16 });
  }, [map, key]);
  return null;
}

export function MapView({ markers, label, tileUrl = TILE_URL }: { markers: MapMarker[]; label: string; tileUrl?: string }) {
  return (
    <div className={`files-map${tileUrl ? '' : ' files-map--no-tiles'}`} role="region" aria-label={label}>
      {!tileUrl && (
        <p className="files-map__note" data-testid="no-tiles">
          {NO_TILES_NOTE}
        </p>
      )}
      <MapContainer center={markers[0]?.position ?? WORLD} zoom={markers.length ? 13 : 2} className="files-map__canvas">
        {tileUrl && <TileLayer url={tileUrl} attribution={TILE_ATTRIBUTION} />}
        {markers.map((marker) => (
          <CircleMarker
            key={marker.id}
            center={marker.position}
            // 14 px: the marker is at least 24 CSS px across with room for its count (WCAG 2.5.8).
            radius={14}
            // A Leaflet option read once, when the SVG path is made (pathOptions only restyle).
            className="files-map__marker"
            pathOptions={{ color: '#1b3a5c', fillColor: '#c62828', fillOpacity: 0.85, weight: 2 }}
            eventHandlers={{
              add: (e) => {
                // The SVG path is what a person (and a test) clicks: name it.
                const el = (e.target as Path).getElement();
                el?.setAttribute('aria-label', `${marker.label}, ${filesLabel(marker.count)}`);
                el?.setAttribute('role', 'button');
              },
            }}
          >
            <Tooltip permanent interactive={false} direction="center" className="files-map__count">
              {marker.count}
            </Tooltip>
            <Popup>{marker.popup}</Popup>
          </CircleMarker>
        ))}
        <FitBounds positions={markers.map((m) => m.position)} />
      </MapContainer>
    </div>
  );
}
