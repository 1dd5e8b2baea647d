//! A signed receipt checked in the browser against the published keys (Details, Proof metadata
//! and the public verification page), with its signed bytes and signature for anyone to check
//! again, and the time an independent time-stamping authority gave it, when it has one (the token
//! is a CMS signature the browser does not check: the evidence packet's verify.sh does).
import { useEffect, useState } from 'react';
import { useReceiptKeysQuery, type Receipt } from '../lib/api/evidence';
import { formatDateTime } from '../lib/format/format';
import { checkReceipt, receiptCheckLabel, type ReceiptCheck as Check } from '../lib/receipts/receipts';

export function ReceiptCheck({ receipt }: { receipt: Receipt }) {
  const keys = useReceiptKeysQuery();
  const [check, setCheck] = useState<Check | 'checking'>('checking');
  useEffect(() => {
    if (!keys.data) return;
    let live = true;
    void checkReceipt(receipt, keys.data).then((result) => {
      if (live) setCheck(result);
    });
    return () => {
      live = false;
    };
  }, [receipt, keys.data]);
  const label = keys.isError ? `Signed receipt (key ${receipt.keyId}): the keys could not be loaded` : receiptCheckLabel(check, receipt.keyId);
  return (
    <>
      <span data-testid="receipt-check" data-check={keys.isError ? 'error' : check}>
        {label}
      </span>
      {receipt.timestampedAt && (
        <span data-testid="receipt-timestamp">Timestamped by the time-stamping authority: {formatDateTime(receipt.timestampedAt)} (the evidence packet checks it)</span>
      )}
      <details className="receipt-check">
        <summary>Signed bytes and signature</summary>
        <code className="receipt-check__code">{receipt.payload}</code>
        <code className="receipt-check__code">{receipt.signature}</code>
      </details>
    </>
  );
}
