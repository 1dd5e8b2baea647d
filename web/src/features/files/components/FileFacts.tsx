//! Every recorded fact of a file (the Details sheet and the proof metadata screen): name, media
//! type, device capture and server receipt times, place, size, duration, SHA-256, verification,
//! storage date, and the signed receipt, checked here against the published key.
import { ReceiptCheck } from '../../../components/ReceiptCheck';
import type { Item } from '../../../lib/api/evidence';
import { COUNTRIES } from '../../../lib/countries/countries';
import { formatDate, formatDateTime, formatDuration, formatFileSize } from '../../../lib/format/format';

const MEDIA_TYPES: Record<string, string> = { image: 'Photo', video: 'Video', audio: 'Audio' };

const VERIFICATION: Record<string, string> = {
  verified: 'Verified: size and SHA-256 match the capture',
  uploaded: 'Received, being checked',
  awaiting_upload: 'Not uploaded yet',
  rejected: 'Rejected',
};

export function countryName(code: string): string {
  if (!code) return '';
  return COUNTRIES.find((c) => c.id === code.toUpperCase())?.name ?? code;
}

function coordinates(item: Pick<Item, 'latitude' | 'longitude'>): string {
  if (item.latitude == null || item.longitude == null) return '';
  return `${item.latitude.toFixed(6)}, ${item.longitude.toFixed(6)}`;
}

export function fileFacts(item: Item): { label: string; value: string }[] {
  const verification = VERIFICATION[item.status] ?? item.status;
  const hasDuration = item.mediaType !== 'image' && item.duration != null;
  return [
    { label: 'Name', value: item.name },
    { label: 'Media type', value: MEDIA_TYPES[item.mediaType] ?? item.mediaType },
    { label: 'Captured on device', value: item.capturedAt ? formatDateTime(item.capturedAt) : '' },
    { label: 'Received by server', value: item.uploadedAt ? formatDateTime(item.uploadedAt) : '' },
    { label: 'Coordinates', value: coordinates(item) },
    { label: 'City', value: item.city },
    { label: 'Address', value: item.address },
    { label: 'Country', value: countryName(item.countryCode) },
    { label: 'Size', value: formatFileSize(item.fileSize) },
    ...(hasDuration ? [{ label: 'Duration', value: formatDuration(item.duration ?? 0) }] : []),
    { label: 'SHA-256', value: item.sha256 },
    {
      label: 'Verification',
      value: item.status === 'rejected' && item.rejectionReason ? `${verification}: ${item.rejectionReason}` : verification,
    },
    { label: 'Storage date', value: item.expirationDate ? formatDate(item.expirationDate) : '' },
  ];
}

/** The facts as a description list; a fact that was not recorded reads 'Not recorded'. */
export function FileFacts({ item }: { item: Item }) {
  return (
    <dl className="files-facts">
      {fileFacts(item).map(({ label, value }) => (
        <div key={label} className="files-facts__row">
          <dt>{label}</dt>
          <dd className={label === 'SHA-256' ? 'files-facts__hash' : undefined}>{value || <span className="muted">Not recorded</span>}</dd>
        </div>
      ))}
      {item.status === 'verified' && (
        <div className="files-facts__row">
          <dt>Receipt</dt>
          <dd>{item.receipt ? <ReceiptCheck receipt={item.receipt} /> : <span className="muted">None: verified before receipts were signed</span>}</dd>
        </div>
      )}
    </dl>
  );
}
