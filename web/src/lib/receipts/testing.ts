//! Test helpers of signed receipts: a receipt signed with a fresh key, as the API answers it.

const base64 = (data: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(data)));

/**
 * A receipt of `payload` signed with a fresh Ed25519 key, and that key as the API publishes it
 * (both snake_case, as the API answers).
 */
export async function signedReceipt(payload: string, keyId = 'k1') {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const signature = await crypto.subtle.sign({ name: 'Ed25519' }, pair.privateKey, new TextEncoder().encode(payload));
  const raw = await crypto.subtle.exportKey('raw', pair.publicKey);
  return {
    receipt: { payload, signature: base64(signature), key_id: keyId },
    key: { id: keyId, algorithm: 'Ed25519', pem: '', raw: base64(raw), current: true },
  };
}
