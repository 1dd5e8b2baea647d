//! Checking a signed receipt in the browser, as anyone could: the Ed25519 signature of the
//! receipt's exact bytes, with the published key it names (WebCrypto; no trust in the server's
//! word that it is valid).
import type { Receipt, ReceiptKey } from '../api/evidence';

export type ReceiptCheck = 'valid' | 'invalid' | 'unknown_key' | 'unsupported';

function bytes(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) out[i] = text.charCodeAt(i);
  return out;
}

/** Whether `receipt` is signed by the published key it names. */
export async function checkReceipt(receipt: Receipt, keys: readonly ReceiptKey[]): Promise<ReceiptCheck> {
  const key = keys.find((k) => k.id === receipt.keyId && k.algorithm === 'Ed25519');
  if (!key) return 'unknown_key';
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return 'unsupported';
  try {
    const publicKey = await subtle.importKey('raw', bytes(key.raw), { name: 'Ed25519' }, false, ['verify']);
    const signed = new TextEncoder().encode(receipt.payload);
    return (await subtle.verify({ name: 'Ed25519' }, publicKey, bytes(receipt.signature), signed)) ? 'valid' : 'invalid';
  } catch (error) {
    // A browser without Ed25519 in WebCrypto throws NotSupportedError; a malformed signature
    // or key is simply not valid.
    return error instanceof DOMException && error.name === 'NotSupportedError' ? 'unsupported' : 'invalid';
  }
}

/** The receipt's check in words. */
export function receiptCheckLabel(check: ReceiptCheck | 'checking', keyId: string): string {
  switch (check) {
    case 'checking':
      return 'Checking the signature…';
    case 'valid':
      return `Signed receipt: signature valid (key ${keyId})`;
    case 'invalid':
      return 'Signed receipt: the signature does not match';
    case 'unknown_key':
      return `Signed receipt: key ${keyId} is not published`;
    case 'unsupported':
      return `Signed receipt (key ${keyId}): this browser cannot check Ed25519 signatures`;
  }
}
