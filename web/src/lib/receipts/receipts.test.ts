// A signed receipt checked in the browser with WebCrypto against the key it names.
import { describe, expect, it } from 'vitest';
import { camelize } from '../case';
import { signedReceipt } from './testing';
import { checkReceipt, receiptCheckLabel } from './receipts';

const PAYLOAD = '{"item_id":"item-1","key_id":"k1","sha256":"' + 'a'.repeat(64) + '","size":123456,"version":1}';

describe('receipts', () => {
  it('finds a receipt signed by the published key valid', async () => {
    const { receipt, key } = await signedReceipt(PAYLOAD);
    expect(await checkReceipt(camelize(receipt), [camelize(key)])).toBe('valid');
  });

  it('finds a changed byte, another key or a bad signature invalid', async () => {
    const { receipt, key } = await signedReceipt(PAYLOAD);
    const other = await signedReceipt(PAYLOAD);
    expect(await checkReceipt(camelize({ ...receipt, payload: PAYLOAD.replace('123456', '123457') }), [camelize(key)])).toBe('invalid');
    expect(await checkReceipt(camelize(receipt), [camelize(other.key)])).toBe('invalid');
    expect(await checkReceipt(camelize({ ...receipt, signature: 'AAAA' }), [camelize(key)])).toBe('invalid');
  });

  it('names a key that is not published', async () => {
    const { receipt, key } = await signedReceipt(PAYLOAD);
    expect(await checkReceipt(camelize(receipt), [camelize({ ...key, id: 'k2' })])).toBe('unknown_key');
    expect(receiptCheckLabel('unknown_key', 'k1')).toBe('Signed receipt: key k1 is not published');
    expect(receiptCheckLabel('valid', 'k1')).toBe('Signed receipt: signature valid (key k1)');
  });
});
