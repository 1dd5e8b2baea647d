//! The API's answers that tests of several features share, snake_case as on the wire; each takes
//! overrides. A feature's own answers stay in its `testing/helpers.tsx`.

export const apiProfile = (overrides: Record<string, unknown> = {}) => ({
  id: 'u1',
  username: 'ann',
  email: 'ann@example.com',
  first_name: 'Ann',
  last_name: 'Lee',
  account_type: 'individual',
  phone_number: { country_code: '+1', national_number: '5551234567' },
  communication_method: 'email',
  address: {
    country: 'Germany',
    apartment_number: '',
    province: 'Berlin',
    street: 'Unter den Linden',
    house: '5',
    city: 'Berlin',
    zip_code: '10117',
  },
  created_at: '2026-01-05T23:30:00Z',
  auto_topping_up_amount: 0,
  credit_card_wallet_balance: 0,
  one_time_benefit_applied: false,
  organization: null,
  ...overrides,
});

/** A saved card. */
export const apiCard = (overrides: Record<string, unknown> = {}) => ({
  id: 'pm_visa',
  brand: 'visa',
  last4: '4242',
  fingerprint: 'fp1',
  exp_month: 12,
  exp_year: 2030,
  default_method: true,
  wallet: false,
  ...overrides,
});

/** An active CreditCard Wallet with $25.00 and the Visa card. */
export const apiStoredAccount = (overrides: Record<string, unknown> = {}) => ({
  active: true,
  payment_method_id: 'pm_visa',
  brand: 'visa',
  last4: '4242',
  auto_topping_up_amount: 2500,
  balance: 2500,
  top_up_error: null,
  ...overrides,
});

/** The stored account of a user without a wallet. */
export const NO_WALLET = apiStoredAccount({ active: false, payment_method_id: null, brand: null, last4: null, auto_topping_up_amount: 0, balance: 0 });

/** An evidence folder. */
export const apiFolder = (overrides: Record<string, unknown> = {}) => ({
  id: 'folder-1',
  name: 'Car rental',
  file_count: 1,
  used_bytes: 123456,
  created_at: '2026-03-04T10:00:00Z',
  expiration_date: '2027-03-04T10:00:00Z',
  expired: false,
  expire_soon: false,
  ...overrides,
});

/** A file of an evidence folder. */
export const apiItem = (overrides: Record<string, unknown> = {}) => ({
  id: 'item-1',
  folder_id: 'folder-1',
  name: 'Front bumper scratch',
  media_type: 'image',
  mime_type: 'image/jpeg',
  file_size: 123456,
  sha256: 'a'.repeat(64),
  status: 'verified',
  rejection_reason: '',
  uploaded: true,
  city: 'Berlin',
  address: 'Berlin, BE, DE',
  country_code: 'DE',
  latitude: 52.52,
  longitude: 13.405,
  duration: null,
  captured_at: '2026-03-04T10:05:00Z',
  uploaded_at: '2026-03-04T10:06:00Z',
  expiration_date: '2027-03-04T10:00:00Z',
  expired: false,
  expire_soon: false,
  thumbnail: 'http://s3.local/thumb.jpg',
  temporary_file_url: 'http://s3.local/file.jpg',
  can_retake: true,
  ...overrides,
});
