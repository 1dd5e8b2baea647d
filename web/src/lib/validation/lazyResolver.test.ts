import { describe, expect, it, vi } from 'vitest';
import type { Resolver } from 'react-hook-form';
import { lazyResolver } from './lazyResolver';

type Values = { name: string };

const valid: Resolver<Values> = async (values) => ({ values, errors: {} });
const call = (resolver: Resolver<Values>) =>
  resolver({ name: 'x' }, undefined, { fields: {}, shouldUseNativeValidation: false });

describe('lazyResolver', () => {
  it('loads the resolver once, on the first validation', async () => {
    const load = vi.fn(async () => valid);
    const resolver = lazyResolver(load);
    expect(load).not.toHaveBeenCalled();
    await expect(call(resolver)).resolves.toEqual({ values: { name: 'x' }, errors: {} });
    await call(resolver);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries a failed load again on the next validation', async () => {
    const load = vi.fn<() => Promise<Resolver<Values>>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(valid);
    const resolver = lazyResolver(load);
    await expect(call(resolver)).rejects.toThrow('offline');
    await expect(call(resolver)).resolves.toEqual({ values: { name: 'x' }, errors: {} });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
