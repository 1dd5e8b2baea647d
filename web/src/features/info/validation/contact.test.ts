// Each rule of the contact-us form gives its message (spec §5 Name, Email, Short text; the message).
import { describe, expect, it } from 'vitest';
import { contactSchema } from './contact';

const valid = { name: 'Ann Lee', email: 'ann@example.com', subject: 'Upload', message: 'It stopped.' };

function messages(values: Partial<typeof valid>) {
  const result = contactSchema.safeParse({ ...valid, ...values });
  if (result.success) return {};
  // The form shows each field's first issue (the resolver's default).
  const first: Record<string, string> = {};
  for (const issue of result.error.issues) first[issue.path.join('.')] ??= issue.message;
  return first;
}

describe('contact-us rules', () => {
  it('accepts a valid message', () => {
    expect(contactSchema.safeParse(valid).success).toBe(true);
  });

  it('name: required, 2 to 150', () => {
    expect(messages({ name: '' })).toEqual({ name: 'This field is required' });
    expect(messages({ name: '   ' })).toEqual({ name: 'This field is required' });
    expect(messages({ name: 'A' })).toEqual({ name: 'Minimum 2 characters' });
    expect(messages({ name: 'a'.repeat(151) })).toEqual({ name: 'Maximum 150 characters' });
    expect(messages({ name: 'a'.repeat(150) })).toEqual({});
  });

  it('email: required, a valid address', () => {
    expect(messages({ email: '' })).toEqual({ email: 'This field is required' });
    expect(messages({ email: 'ann@' })).toEqual({ email: 'Please enter a valid email address' });
    expect(messages({ email: 'ann.example.com' })).toEqual({ email: 'Please enter a valid email address' });
  });

  it('subject: required, 3 to 30', () => {
    expect(messages({ subject: '' })).toEqual({ subject: 'This field is required' });
    expect(messages({ subject: 'Hi' })).toEqual({ subject: 'Minimum 3 characters' });
    expect(messages({ subject: 's'.repeat(31) })).toEqual({ subject: 'Maximum 30 characters' });
    expect(messages({ subject: 's'.repeat(30) })).toEqual({});
  });

  it('message: required, at most 2000', () => {
    expect(messages({ message: '' })).toEqual({ message: 'This field is required' });
    expect(messages({ message: 'm'.repeat(2001) })).toEqual({ message: 'Maximum 2000 characters' });
    expect(messages({ message: 'm'.repeat(2000) })).toEqual({});
  });
});
