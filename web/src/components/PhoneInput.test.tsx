import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COUNTRIES, isPrimaryForDialCode } from '../lib/countries/countries';
import { PHONE_DEBOUNCE_MS, PhoneInput } from './PhoneInput';

describe('phone input (spec §5)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('passes digits on after a 500 ms debounce', () => {
    const onNumber = vi.fn();
    render(<PhoneInput countryCode="+1" onCountryCodeChange={() => undefined} onNumberChange={onNumber} />);
    onNumber.mockClear();
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '4155550100' } });
    act(() => vi.advanceTimersByTime(PHONE_DEBOUNCE_MS - 1));
    expect(onNumber).not.toHaveBeenCalledWith('4155550100');
    act(() => vi.advanceTimersByTime(1));
    expect(onNumber).toHaveBeenLastCalledWith('4155550100');
  });

  it('passes the number on at once when the field is left', () => {
    const onNumber = vi.fn();
    render(<PhoneInput countryCode="+1" onCountryCodeChange={() => undefined} onNumberChange={onNumber} />);
    const input = screen.getByLabelText('Phone number');
    fireEvent.change(input, { target: { value: '4155550100' } });
    fireEvent.blur(input);
    expect(onNumber).toHaveBeenLastCalledWith('4155550100');
  });

  it('blocks e, E, +, - and paste', () => {
    render(<PhoneInput countryCode="+1" onCountryCodeChange={() => undefined} onNumberChange={() => undefined} />);
    const input = screen.getByLabelText('Phone number');
    for (const key of ['e', 'E', '+', '-']) {
      expect(fireEvent.keyDown(input, { key })).toBe(false);
    }
    expect(fireEvent.keyDown(input, { key: '5' })).toBe(true);
    expect(fireEvent.paste(input)).toBe(false);
  });

  it('offers the known country codes', () => {
    render(<PhoneInput countryCode="+44" onCountryCodeChange={() => undefined} onNumberChange={() => undefined} />);
    const select = screen.getByLabelText('Country code') as HTMLSelectElement;
    expect(select.options.length).toBeGreaterThan(200);
    expect(select.value).toBe('+44');
  });

  it('shows +1 as the United States, not the first +1 country by name', () => {
    render(<PhoneInput countryCode="+1" onCountryCodeChange={() => undefined} onNumberChange={() => undefined} />);
    const select = screen.getByLabelText('Country code') as HTMLSelectElement;
    expect(select.selectedOptions[0]?.textContent).toBe('United States of America (+1)');
  });

  it('keeps another country of a shared code once chosen, passing on its code', () => {
    const onCode = vi.fn();
    const { rerender } = render(<PhoneInput countryCode="+44" onCountryCodeChange={onCode} onNumberChange={() => undefined} />);
    const select = screen.getByLabelText('Country code') as HTMLSelectElement;
    fireEvent.change(select, { target: { value: '+1 CA' } });
    expect(onCode).toHaveBeenLastCalledWith('+1');
    rerender(<PhoneInput countryCode="+1" onCountryCodeChange={onCode} onNumberChange={() => undefined} />);
    expect(select.selectedOptions[0]?.textContent).toBe('Canada (+1)');
    rerender(<PhoneInput countryCode="+7" onCountryCodeChange={onCode} onNumberChange={() => undefined} />);
    expect(select.selectedOptions[0]?.textContent).toBe('Russia (+7)');
  });

  it('gives every calling code exactly one main country', () => {
    const byCode = new Map<string, string[]>();
    for (const c of COUNTRIES) if (isPrimaryForDialCode(c)) byCode.set(c.dialCode, [...(byCode.get(c.dialCode) ?? []), c.id]);
    expect(new Set(COUNTRIES.map((c) => c.dialCode)).size).toBe(byCode.size);
    for (const ids of byCode.values()) expect(ids).toHaveLength(1);
  });
});
