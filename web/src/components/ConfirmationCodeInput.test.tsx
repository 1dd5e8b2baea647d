import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ConfirmationCodeInput, formatCode } from './ConfirmationCodeInput';

function Harness({ error }: { error?: string }) {
  const [code, setCode] = useState('');
  return (
    <>
      <ConfirmationCodeInput value={code} onChange={setCode} error={error} />
      <output data-testid="value">{code}</output>
    </>
  );
}

describe('confirmation code input (spec §5)', () => {
  it('masks six digits as 999 999 and keeps only digits', () => {
    expect(formatCode('12a3456789')).toBe('123 456');
    expect(formatCode('12')).toBe('12');
    expect(formatCode('ab12cd', true)).toBe('AB1 2CD');
    render(<Harness />);
    const input = screen.getByLabelText('Confirmation code');
    fireEvent.change(input, { target: { value: '98 76x54' } });
    expect(input).toHaveValue('987 654');
    expect(screen.getByTestId('value')).toHaveTextContent('987654');
    expect(input).toHaveAttribute('inputmode', 'numeric');
  });

  it("highlights the field for an error containing 'incorrect' and shows it", () => {
    render(<Harness error="The confirmation code is incorrect." />);
    expect(screen.getByLabelText('Confirmation code')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('The confirmation code is incorrect.')).toBeInTheDocument();
  });

  it("highlights without text for 'just_error'", () => {
    const { container } = render(<Harness error="just_error" />);
    expect(screen.getByLabelText('Confirmation code')).toHaveAttribute('aria-invalid', 'true');
    expect(container.querySelector('.field__error')).toBeNull();
  });

  it('shows other errors without highlighting', () => {
    render(<Harness error="Too many attempts. Please request a new code." />);
    expect(screen.getByLabelText('Confirmation code')).toHaveAttribute('aria-invalid', 'false');
    expect(screen.getByText('Too many attempts. Please request a new code.')).toBeInTheDocument();
  });
});
