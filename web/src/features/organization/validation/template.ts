//! The capture template form's rules, as the server checks them: a name of 2-50 characters, a
//! description of at most 500, and 1-20 steps, each with a name of 2-50 characters, instructions
//! of at most 500, at least one kind of media, and 0-20 files at least and 1-20 at most (the most
//! not below the least). Numbers are typed as text and read back as whole numbers.
import { z } from 'zod';
import { MEDIA_KINDS, type CaptureTemplate, type MediaKind, type TemplateRequest } from '../api/types';

export const TEMPLATE_MESSAGES = {
  required: 'This field is required',
  min2: 'Minimum 2 characters',
  max50: 'Maximum 50 characters',
  max500: 'Maximum 500 characters',
  media: 'Choose at least one kind of media',
  minFiles: 'Enter a whole number from 0 to 20',
  maxFiles: 'Enter a whole number from 1 to 20',
  maxBelowMin: 'Must be at least the minimum',
  steps: 'A template has 1 to 20 steps',
} as const;

export const MAX_STEPS = 20;

const text = (min: number, max: number) => {
  const trimmed = z.string().trim();
  // An empty required field says so (spec §5 'This field is required'), a short one its minimum.
  return min > 0 ? trimmed.min(1, { message: TEMPLATE_MESSAGES.required, abort: true }).min(min, TEMPLATE_MESSAGES.min2).max(max, max === 50 ? TEMPLATE_MESSAGES.max50 : TEMPLATE_MESSAGES.max500) : trimmed.max(max, TEMPLATE_MESSAGES.max500);
};
const whole = (min: number, max: number, message: string) =>
  z.string().trim().regex(/^\d+$/, message).refine((v) => Number(v) >= min && Number(v) <= max, message);

export const stepSchema = z
  .object({
    id: z.string().optional(),
    name: text(2, 50),
    instructions: text(0, 500),
    mediaTypes: z.array(z.enum(MEDIA_KINDS as [MediaKind, ...MediaKind[]])).min(1, TEMPLATE_MESSAGES.media),
    minFiles: whole(0, 20, TEMPLATE_MESSAGES.minFiles),
    maxFiles: whole(1, 20, TEMPLATE_MESSAGES.maxFiles),
  })
  .refine((step) => !/^\d+$/.test(step.minFiles) || !/^\d+$/.test(step.maxFiles) || Number(step.maxFiles) >= Number(step.minFiles), {
    message: TEMPLATE_MESSAGES.maxBelowMin,
    path: ['maxFiles'],
  });

export const templateSchema = z.object({
  name: text(2, 50),
  description: text(0, 500),
  steps: z.array(stepSchema).min(1, TEMPLATE_MESSAGES.steps).max(MAX_STEPS, TEMPLATE_MESSAGES.steps),
});

export type TemplateValues = z.infer<typeof templateSchema>;
export type StepValues = TemplateValues['steps'][number];

export const newStep = (): StepValues => ({ name: '', instructions: '', mediaTypes: ['image'], minFiles: '1', maxFiles: '5' });

export const emptyTemplate = (): TemplateValues => ({ name: '', description: '', steps: [newStep()] });

/** The form's values of a stored template. */
export function templateValues(template: CaptureTemplate): TemplateValues {
  return {
    name: template.name,
    description: template.description,
    steps: template.steps.map((step) => ({
      id: step.id,
      name: step.name,
      instructions: step.instructions,
      mediaTypes: step.mediaTypes,
      minFiles: String(step.minFiles),
      maxFiles: String(step.maxFiles),
    })),
  };
}

/** The request of checked values: steps in their order, each keeping its id. */
export function templateRequest(values: TemplateValues): TemplateRequest {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    steps: values.steps.map((step) => ({
      ...(step.id && { id: step.id }),
      name: step.name.trim(),
      instructions: step.instructions.trim(),
      media_types: MEDIA_KINDS.filter((kind) => step.mediaTypes.includes(kind)),
      min_files: Number(step.minFiles),
      max_files: Number(step.maxFiles),
    })),
  };
}

const STEP_FIELDS: Record<string, keyof StepValues> = {
  name: 'name',
  instructions: 'instructions',
  media_types: 'mediaTypes',
  min_files: 'minFiles',
  max_files: 'maxFiles',
};

/** The form field of a server error's `field` ('name', 'steps[1].max_files', 'steps.1.max_files'), or undefined. */
export function formField(field: string): string | undefined {
  if (field === 'name' || field === 'description') return field;
  const step = /^steps(?:\[(\d+)\]|\.(\d+))\.(\w+)$/.exec(field);
  if (!step) return field === 'steps' ? 'steps' : undefined;
  const name = STEP_FIELDS[step[3] ?? ''];
  return name ? `steps.${step[1] ?? step[2]}.${name}` : undefined;
}
