//! The card brand icons of spec §3: nine brands, generic unknown and error (small inline SVGs).
import type { BrandIconName } from '../model/cards';

const LOOK: Record<Exclude<BrandIconName, 'unknown' | 'error' | 'mastercard' | 'maestro'>, { bg: string; fg: string; text: string }> = {
  visa: { bg: '#1a1f71', fg: '#fff', text: 'VISA' },
  amex: { bg: '#2e77bb', fg: '#fff', text: 'AMEX' },
  discover: { bg: '#fff', fg: '#e55c20', text: 'DISCOVER' },
  diners: { bg: '#0079be', fg: '#fff', text: 'DINERS' },
  jcb: { bg: '#0b4ea2', fg: '#fff', text: 'JCB' },
  unionpay: { bg: '#d10429', fg: '#fff', text: 'UnionPay' },
  union: { bg: '#01798a', fg: '#fff', text: 'UNION' },
};

const LABEL: Record<BrandIconName, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  maestro: 'Maestro',
  unionpay: 'UnionPay',
  union: 'Union',
  unknown: 'Card',
  error: 'Card error',
};

export function BrandIcon({ brand }: { brand: BrandIconName }) {
  return (
    <svg className={`brand-icon brand-icon--${brand}`} viewBox="0 0 48 32" width="40" height="26" role="img" aria-label={LABEL[brand]} data-brand={brand}>
      <rect x="0.5" y="0.5" width="47" height="31" rx="4" fill={brand === 'error' ? '#fdecec' : '#fff'} stroke={brand === 'error' ? '#d93025' : '#c9d1da'} />
      {brand === 'mastercard' || brand === 'maestro' ? (
        <>
          <circle cx="19" cy="16" r="9" fill={brand === 'maestro' ? '#0099df' : '#eb001b'} />
          <circle cx="29" cy="16" r="9" fill={brand === 'maestro' ? '#e6001f' : '#f79e1b'} fillOpacity="0.85" />
        </>
      ) : brand === 'unknown' ? (
        <>
          <rect x="6" y="9" width="36" height="5" fill="#8a96a3" />
          <rect x="6" y="19" width="14" height="3" rx="1" fill="#b5bfc9" />
        </>
      ) : brand === 'error' ? (
        <>
          <circle cx="24" cy="16" r="9" fill="#d93025" />
          <rect x="23" y="10" width="2" height="8" fill="#fff" />
          <rect x="23" y="20" width="2" height="2" fill="#fff" />
        </>
      ) : (
        <>
          <rect x="1" y="1" width="46" height="30" rx="3.5" fill={LOOK[brand].bg} />
          <text x="24" y="20" textAnchor="middle" fontFamily="Arial, sans-serif" fontWeight="700" fontSize={LOOK[brand].text.length > 5 ? 7.5 : 11} fill={LOOK[brand].fg}>
            {LOOK[brand].text}
          </text>
        </>
      )}
    </svg>
  );
}
