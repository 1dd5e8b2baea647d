//! Rental captures: a vehicle or hotel rental folder at its Pick-up or Return (spec §1, §4
//! "Vehicle rental steps"), the labels the screens show and the folder name a new capture gets.
import type { Folder, Item } from '../../../lib/api/evidence';
import { formatDate } from '../../../lib/format/format';

export type RentalKind = 'vehicle' | 'hotel';
export type Moment = 'pickup' | 'return';
export type VehicleType = 'car' | 'suv' | 'watercraft' | 'trailer' | 'truck';
export type CaptureMode = 'photo' | 'video';

/** A folder's rental, checked (see `rentalOf`). */
export interface Rental {
  kind: RentalKind;
  vehicleType: VehicleType | null;
  moment: Moment;
  pickupFolderId: string | null;
}
/**
 * What the rental screens read of an item, with the section it was captured for: a subset, so
 * these rules depend on no more of the item than they use.
 */
export type RentalItem = Pick<Item, 'id' | 'name' | 'mediaType' | 'status' | 'thumbnail' | 'capturedAt' | 'uploadedAt' | 'expired'> & {
  section?: string | null;
};

/** The body of `POST evidence/folders/create/` for a rental (snake_case, as requests are). */
export interface NewRentalFolder {
  name: string;
  client_id: string;
  rental: { kind: RentalKind; vehicle_type?: VehicleType; moment: Moment; pickup_folder_id?: string };
}

/** spec §1: Car, SUV, Watercraft, Trailer, Truck, in that order. */
export const VEHICLE_TYPES: readonly { id: VehicleType; label: string }[] = [
  { id: 'car', label: 'Car' },
  { id: 'suv', label: 'SUV' },
  { id: 'watercraft', label: 'Watercraft' },
  { id: 'trailer', label: 'Trailer' },
  { id: 'truck', label: 'Truck' },
];

export function vehicleLabel(type: VehicleType | null | undefined): string {
  return VEHICLE_TYPES.find((v) => v.id === type)?.label ?? 'Vehicle';
}

/**
 * What a moment is called: a vehicle is picked up and returned; a hotel guest checks in and out
 * (stored as `pickup` / `return`, so both kinds share one model and one compare view).
 */
export function momentLabel(kind: RentalKind, moment: Moment): string {
  if (kind === 'hotel') return moment === 'pickup' ? 'Check-in' : 'Check-out';
  return moment === 'pickup' ? 'Pick-up' : 'Return';
}

/** The route of each kind's flow and capture screen. */
export const RENTAL_PATHS: Record<RentalKind, { start: string; capture: string }> = {
  vehicle: { start: '/vehicle-rental', capture: '/vehicle-rental/capture' },
  hotel: { start: '/hotel-rental', capture: '/hotel-rental/capture' },
};

/** The capture screen of a rental folder. */
export function captureScreenUrl(kind: RentalKind, folderId: string): string {
  return `${RENTAL_PATHS[kind].capture}?${new URLSearchParams({ folderId }).toString()}`;
}

/**
 * The name of a new rental folder, e.g. 'Car Pick-up, Nov 21, 2026' or 'Hotel Check-out, Nov 21,
 * 2026'. A comma, not '·': folder names follow spec §5 "File name", which allows letters, digits
 * and , - _ ` | . ' " only.
 */
export function rentalFolderName(kind: RentalKind, moment: Moment, vehicleType: VehicleType | null | undefined, now: Date): string {
  const subject = kind === 'hotel' ? 'Hotel' : vehicleLabel(vehicleType);
  return `${subject} ${momentLabel(kind, moment)}, ${formatDate(now)}`;
}

const isVehicleType = (value: unknown): value is VehicleType => VEHICLE_TYPES.some((v) => v.id === value);

/**
 * A folder's rental, checked at the edge: the folder's `rental` as the service answers it
 * (camelCased), or null for an ordinary folder or a value this app does not know.
 */
export function rentalOf(folder: Folder): Rental | null {
  const raw = (folder as { rental?: unknown }).rental;
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  const kind = r.kind === 'vehicle' || r.kind === 'hotel' ? r.kind : null;
  const moment = r.moment === 'pickup' || r.moment === 'return' ? r.moment : null;
  if (!kind || !moment) return null;
  return {
    kind,
    moment,
    vehicleType: isVehicleType(r.vehicleType) ? r.vehicleType : null,
    pickupFolderId: typeof r.pickupFolderId === 'string' ? r.pickupFolderId : null,
  };
}

/** The user's earlier Pick-up (check-in) folders of `kind`, newest first: what a Return links to. */
export function pickupFolders(folders: readonly Folder[], kind: RentalKind): { folder: Folder; rental: Rental }[] {
  return folders
    .map((folder) => ({ folder, rental: rentalOf(folder) }))
    .filter((f): f is { folder: Folder; rental: Rental } => f.rental?.kind === kind && f.rental.moment === 'pickup')
    .sort((a, b) => (b.folder.createdAt ?? '').localeCompare(a.folder.createdAt ?? ''));
}

/**
 * The URL of the capture screen (`/evidence`, the lead's contract): it captures into `folderId`
 * with `section` on the item, then offers to go back to `returnTo`.
 */
export function evidenceCaptureUrl(folderId: string, section: string, mode: CaptureMode, returnTo: string): string {
  return `/evidence?${new URLSearchParams({ situation: folderId, section, mode, returnTo }).toString()}`;
}
