export { AddressForm, ADDRESS_LABELS } from './AddressForm';
export { AddressPicker, SEARCH_DEBOUNCE_MS, SEARCH_MAX_LENGTH } from './AddressPicker';
export { ADDRESS_FIELDS, ADDRESS_MESSAGES, addressFromPlace, addressRules, addressSchema, EMPTY_ADDRESS, fullAddress } from './rules';
export type { Address, AddressFields } from './rules';
export { formatPostal, INVALID_ZIP_FORMAT, matchesPostal, POSTAL_PATTERN_BY_COUNTRY, postalPatternFor } from './postal';
export type { PostalPattern } from './postal';
