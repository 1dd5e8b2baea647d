//! What the service knows of an issued copy (public verification): its transaction number, copy
//! type, whom it was generated for, where it was sent (masked), when, whether the owner revoked it,
//! and each file's SHA-256 (of the copy and of the original), capture time and place, and the
//! time the server received it, with the original's signed receipt checked in the browser. With
//! a checked file, which of the files it is.
import { ReceiptCheck } from '../../../components/ReceiptCheck';
import { formatDateTime } from '../../../lib/format/format';
import type { Verification, VerifiedItem } from '../api/types';
import { COPY_TYPE_LABELS, MEDIA_TYPE_LABELS, MESSAGES, WATERMARK_LABELS } from '../model/labels';

function place(item: VerifiedItem): string {
  const coordinates = item.latitude != null && item.longitude != null ? `${item.latitude.toFixed(6)}, ${item.longitude.toFixed(6)}` : '';
  return [item.city, item.address, coordinates].filter(Boolean).join(' · ');
}

function Facts({ rows }: { rows: [string, string, string?][] }) {
  return (
    <dl className="sharing-facts">
      {rows.map(([label, value, testId]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd className={label.includes('SHA-256') ? 'sharing-hash' : undefined} data-testid={testId}>
            {value || <span className="muted">Not recorded</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function VerificationDetails({ verification, matched }: { verification: Verification; matched?: number | null }) {
  const matchedItem = matched != null ? verification.items[matched] : undefined;
  return (
    <section className="card sharing-verification" aria-label={`Copy ${verification.transactionNumber}`} data-testid="verification">
      {matchedItem && (
        <p className="sharing-verdict sharing-verdict--intact" role="status" data-testid="byte-identical">
          {MESSAGES.byteIdentical} It is the copy of <strong>{matchedItem.name}</strong>.
        </p>
      )}
      <span className={`watermark__badge watermark__badge--${verification.copyType}`}>{COPY_TYPE_LABELS[verification.copyType]}</span>
      {verification.revoked && (
        <p className="sharing-share__revoked" data-testid="verification-revoked">
          The owner has revoked this copy.
        </p>
      )}
      <Facts
        rows={[
          [WATERMARK_LABELS.transactionNumber, verification.transactionNumber, 'verified-transaction-number'],
          ...(verification.generatedFor !== null ? [[WATERMARK_LABELS.generatedFor, verification.generatedFor, 'verified-generated-for'] as [string, string, string]] : []),
          [WATERMARK_LABELS.sentTo, verification.sentTo],
          [WATERMARK_LABELS.generatedOn, formatDateTime(verification.generatedOn)],
          ['Revoked', verification.revoked ? 'Yes' : 'No'],
        ]}
      />
      <ol className="sharing-verified-items" aria-label="Files">
        {verification.items.map((item, index) => (
          <li key={`${index}-${item.name}`} className={`sharing-verified-item${index === matched ? ' sharing-verified-item--matched' : ''}`}>
            <h3 className="sharing-custody__name">
              {item.name} <span className="muted">({MEDIA_TYPE_LABELS[item.mediaType] ?? item.mediaType})</span>
            </h3>
            <Facts
              rows={[
                ['SHA-256 of the copy', item.copySha256 ?? ''],
                ['SHA-256 of the original', item.originalSha256],
                ['Captured on device', item.capturedAt ? formatDateTime(item.capturedAt) : ''],
                ['Place', place(item)],
                ['Received by server', item.receivedAt ? formatDateTime(item.receivedAt) : ''],
              ]}
            />
            {item.receipt && (
              <div className="sharing-receipt">
                <ReceiptCheck receipt={item.receipt} />
              </div>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
