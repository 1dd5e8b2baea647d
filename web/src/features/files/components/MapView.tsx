//! A Leaflet map without image assets: circle markers, and a tile layer only when one is configured
//! (`VITE_MAP_TILE_URL`, empty by default: the local stack has no internet, markers show anyway).
import 'leaflet/dist/leaflet.css';
import type { Path } from 'leaflet';
import { useEffect, type ReactNode } from 'react';
import { CircleMarker, MapContainer, Popup, TileLayer, useMap } from 'react-leaflet';
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

export interface MapMarker {
  id: string;
  position: LatLng;
  label: string;
  popup: ReactNode;
}

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

export function MapView({ markers, label }: { markers: MapMarker[]; label: string }) {
  return (
    <div className="files-map" role="region" aria-label={label}>
      <MapContainer center={markers[0]?.position ?? WORLD} zoom={markers.length ? 13 : 2} className="files-map__canvas">
        {TILE_URL && <TileLayer url={TILE_URL} attribution={TILE_ATTRIBUTION} />}
        {markers.map((marker) => (
          <CircleMarker
            key={marker.id}
            center={marker.position}
            radius={10}
            // A Leaflet option read once, when the SVG path is made (pathOptions only restyle).
            className="files-map__marker"
            pathOptions={{ color: '#1b3a5c', fillColor: '#c62828', fillOpacity: 0.85, weight: 2 }}
            eventHandlers={{
              add: (e) => {
                // The SVG path is what a person (and a test) clicks: name it.
                const el = (e.target as Path).getElement();
                el?.setAttribute('aria-label', marker.label);
                el?.setAttribute('role', 'button');
              },
            }}
          >
            <Popup>{marker.popup}</Popup>
          </CircleMarker>
        ))}
        <FitBounds positions={markers.map((m) => m.position)} />
      </MapContainer>
    </div>
  );
}
