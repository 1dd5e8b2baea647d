//! The places provider interface behind the address picker (spec §7 "Places-autocomplete
//! service": suggestions, and details with country, locality, route, administrative areas 1 to 3,
//! postal code and street number). The app uses the offline local provider (local.ts); a hosted
//! autocomplete service would be another implementation of the same interface.

export interface PlaceSuggestion {
  /** Opaque to callers: pass it back to `details`. */
  id: string;
  city: string;
  country: string;
  /** The state or province, shown under the label to tell same-named cities apart. */
  region: string;
  /** What the picker lists: 'city, country' (spec §2 "Address picker"). */
  label: string;
}

/** A place's address parts; a part the place does not have is the empty string. */
export interface PlaceDetails {
  country: string;
  /** ISO 3166-1 alpha-2 code of the country, or ''. */
  countryCode: string;
  locality: string;
  route: string;
  streetNumber: string;
  postalCode: string;
  administrativeArea1: string;
  administrativeArea2: string;
  administrativeArea3: string;
  /** The one-line address. */
  formatted: string;
}

export interface PlacesProvider {
  suggest(query: string): Promise<PlaceSuggestion[]>;
  details(id: string): Promise<PlaceDetails>;
}

export const EMPTY_DETAILS: PlaceDetails = {
  country: '',
  countryCode: '',
  locality: '',
  route: '',
  streetNumber: '',
  postalCode: '',
  administrativeArea1: '',
  administrativeArea2: '',
  administrativeArea3: '',
  formatted: '',
};
