export type { PlaceDetails, PlaceSuggestion, PlacesProvider } from './provider';
export { EMPTY_DETAILS } from './provider';
export { createLocalPlacesProvider, placesProvider } from './local';
