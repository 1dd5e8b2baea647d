//! The watermark banner of spec §2: Generated for (an authenticated copy only), Sent To,
//! Generated On and Transaction Number, with the badge 'Authenticated Copy' or 'Unauthenticated
//! Copy' (spec §3 "Watermark copy"). The same banner is the overlay of the media viewers.
import { formatDateTime } from '../../../lib/format/format';
import type { CopyType } from '../api/types';
import { COPY_TYPE_LABELS, WATERMARK_LABELS } from '../model/labels';

export interface WatermarkFields {
  copyType: CopyType;
  generatedFor: string | null;
  sentTo: string;
  /** A time, or words standing for one (a preview). */
  generatedOn: string;
  transactionNumber: string;
}

interface Props {
  watermark: WatermarkFields;
  /** A preview shows words where a copy will have values. */
  preview?: boolean;
  /** Over a viewer: compact and light on dark. */
  overlay?: boolean;
}

function when(value: string): string {
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : formatDateTime(value);
}

export function WatermarkBanner({ watermark, preview = false, overlay = false }: Props) {
  const rows: [string, string][] = [
    ...(watermark.copyType === 'authenticated' ? [[WATERMARK_LABELS.generatedFor, watermark.generatedFor ?? ''] as [string, string]] : []),
    [WATERMARK_LABELS.sentTo, watermark.sentTo],
    [WATERMARK_LABELS.generatedOn, when(watermark.generatedOn)],
    [WATERMARK_LABELS.transactionNumber, watermark.transactionNumber],
  ];
  const classes = ['watermark', `watermark--${watermark.copyType}`, preview ? 'watermark--preview' : '', overlay ? 'watermark--overlay' : ''].filter(Boolean).join(' ');
  return (
    <section className={classes} aria-label={preview ? 'Watermark preview' : 'Watermark'} data-testid="watermark">
      <span className={`watermark__badge watermark__badge--${watermark.copyType}`}>{COPY_TYPE_LABELS[watermark.copyType]}</span>
      <dl className="watermark__fields">
        {rows.map(([label, value]) => (
          <div key={label} className="watermark__field">
            <dt>{label}</dt>
            <dd data-testid={`watermark-${label.toLowerCase().replace(/\s+/g, '-')}`}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
