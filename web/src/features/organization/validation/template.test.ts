// The template rules and the request they make: steps in order keeping their ids, numbers read
// back, and server field names placed on the form.
import { describe, expect, it } from 'vitest';
import { formField, newStep, TEMPLATE_MESSAGES, templateRequest, templateSchema } from './template';

const issue = (values: unknown) => templateSchema.safeParse(values).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('the template rules', () => {
  it('ask for names of 2-50 characters, a kind of media and sensible file counts', () => {
    expect(
      issue({ name: 'A', description: '', steps: [{ ...newStep(), name: 'x'.repeat(51), mediaTypes: [], minFiles: '3', maxFiles: '2' }] }),
    ).toEqual([
      `name: ${TEMPLATE_MESSAGES.min2}`,
      `steps.0.name: ${TEMPLATE_MESSAGES.max50}`,
      `steps.0.mediaTypes: ${TEMPLATE_MESSAGES.media}`,
      `steps.0.maxFiles: ${TEMPLATE_MESSAGES.maxBelowMin}`,
    ]);
    expect(issue({ name: 'Intake', description: '', steps: [] })).toEqual([`steps: ${TEMPLATE_MESSAGES.steps}`]);
    expect(issue({ name: '  ', description: '', steps: [{ ...newStep(), name: '', mediaTypes: ['image'] }] })).toEqual([
      `name: ${TEMPLATE_MESSAGES.required}`,
      `steps.0.name: ${TEMPLATE_MESSAGES.required}`,
    ]);
  });

  it('make the request in the order of the steps, keeping ids', () => {
    const values = templateSchema.parse({
      name: ' Intake ',
      description: '',
      steps: [
        { ...newStep(), name: 'Second', id: 'st-2', mediaTypes: ['video', 'image'], minFiles: '0', maxFiles: '2' },
        { ...newStep(), name: 'New one' },
      ],
    });
    expect(templateRequest(values)).toEqual({
      name: 'Intake',
      description: '',
      steps: [
        { id: 'st-2', name: 'Second', instructions: '', media_types: ['image', 'video'], min_files: 0, max_files: 2 },
        { name: 'New one', instructions: '', media_types: ['image'], min_files: 1, max_files: 5 },
      ],
    });
  });

  it("place the server's field names on the form", () => {
    expect(formField('name')).toBe('name');
    expect(formField('steps[1].max_files')).toBe('steps.1.maxFiles');
    expect(formField('steps.0.media_types')).toBe('steps.0.mediaTypes');
    expect(formField('other')).toBeUndefined();
  });
});
