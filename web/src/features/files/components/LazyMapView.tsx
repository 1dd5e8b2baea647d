//! The map, loaded on demand: Leaflet is only fetched by the two map screens.
import { lazy, Suspense, type ComponentProps } from 'react';

const MapView = lazy(() => import('./MapView').then((module) => ({ default: module.MapView })));

export function LazyMapView(props: ComponentProps<typeof MapView>) {
  return (
    <Suspense fallback={<p className="muted">Loading the map…</p>}>
      <MapView {...props} />
    </Suspense>
  );
}
