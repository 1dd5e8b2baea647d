//! The payment information form's rules (spec §5 "Billing first and last name", "Full billing
//! address"), messages word for word. The address parts are checked on the billing address
//! sub-screen with the shared address rules.
import { z } from 'zod';
import { MESSAGES } from '../../../lib/validation/rules';

export const BILLING_MESSAGES = {
  required: MESSAGES.required,
  min2: MESSAGES.min2,
  max50: 'Maximum 50 characters',
  fullAddress: 'Enter your billing address',
} as const;

export const billingName = z
  .string()
  .trim()
  .min(1, BILLING_MESSAGES.required)
  .max(50, BILLING_MESSAGES.max50)
  .min(2, BILLING_MESSAGES.min2);

export const paymentInformationSchema = z.object({
  firstName: billingName,
  lastName: billingName,
  fullAddress: z.string().trim().min(1, BILLING_MESSAGES.fullAddress),
  foundAddress: z.string(),
  country: z.string(),
  province: z.string(),
  street: z.string(),
  house: z.string(),
  apartmentNumber: z.string(),
  city: z.string(),
  zipCode: z.string(),
  useProfileAddress: z.boolean(),
  setDefault: z.boolean(),
});

export type PaymentInformationValues = z.infer<typeof paymentInformationSchema>;
