import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
});
