//! The file-name rule of spec §5 (rename, and the name given at capture), messages word for word.
import { z } from 'zod';

export const FILE_NAME_MESSAGES = {
  min: 'Must be 2 characters or more',
  max: 'Must be 50 characters or less',
  special: 'Special characters can not be used',
} as const;

export const FILE_NAME_MIN_LENGTH = 2;
export const FILE_NAME_MAX_LENGTH = 50;
/** The input's own limit (its `maxLength`), above the rule's 50 so the message can show (spec §5, §9). */
export const FILE_NAME_INPUT_MAX_LENGTH = 250;

/**
 * Letters and digits of any script ('Café', 'Дом 12'), and , - _ ` | . ' " and space. The classes
 * are Rust's `char::is_alphanumeric` (Alphabetic or Numeric), which the evidence service checks.
 */
const ALLOWED = /^[\p{Alphabetic}\p{N},\-_`|.'" ]*$/u;

/** Length in characters (code points), as a person counts them and as the server's `chars()` does. */
const length = (value: string) => Array.from(value).length;

/**
 * The name, trimmed (a name of spaces alone is too short, and the output carries no edge spaces).
 * With several faults the first message is the characters', then the length's.
 */
export const fileName = z
  .string()
  .trim()
  .regex(ALLOWED, FILE_NAME_MESSAGES.special)
  .refine((v) => length(v) >= FILE_NAME_MIN_LENGTH, FILE_NAME_MESSAGES.min)
  .refine((v) => length(v) <= FILE_NAME_MAX_LENGTH, FILE_NAME_MESSAGES.max);

/** The message for `value`, or undefined when it is a valid name. */
export function fileNameError(value: string): string | undefined {
  const result = fileName.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}
