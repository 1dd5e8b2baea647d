//! The wallet's rules (spec §5 "Wallet amount", "Wallet forms"; §9 amounts): the custom amount's
//! schema with the spec's messages word for word, the presets, and when the form's button is enabled.
import { z } from 'zod';
import { MESSAGES } from '../../../lib/validation/rules';
import { dollarsToCents } from '../../../lib/format/money';

export type WalletMode = 'create' | 'edit' | 'top-up';

/** Spec §9: presets $10, $25, $50; minimum $10, maximum entered $100; amounts in cents. */
export const PRESET_AMOUNTS = [1000, 2500, 5000] as const;
export const MIN_AMOUNT = 1000;
export const MAX_AMOUNT = 10000;
/** Spec §9: auto top-up when the balance falls below $5.00. */
export const AUTO_TOP_UP_THRESHOLD = 500;

export const AMOUNT_MESSAGES = {
  required: MESSAGES.required,
  // Not given by the spec (decisions-wallet.md): the format rule's own message.
  decimal: 'Enter an amount with up to 2 decimal places',
  // Spec §5, word for word (sic).
  min: 'The amount should be more then 10$',
  max: 'The amount should be less then 100$',
} as const;

/** The custom amount dialog's field: a decimal with up to 2 places, from $10 to $100. */
export const customAmount = z
  .string()
  .trim()
  .min(1, AMOUNT_MESSAGES.required)
  .refine((v) => dollarsToCents(v) !== undefined, AMOUNT_MESSAGES.decimal)
  .refine((v) => (dollarsToCents(v) ?? MIN_AMOUNT) >= MIN_AMOUNT, AMOUNT_MESSAGES.min)
  .refine((v) => (dollarsToCents(v) ?? MAX_AMOUNT) <= MAX_AMOUNT, AMOUNT_MESSAGES.max);

/** The first message the custom amount breaks, or undefined when it is valid. */
export function amountError(text: string): string | undefined {
  const result = customAmount.safeParse(text);
  return result.success ? undefined : result.error.issues[0]?.message;
}

/**
 * While typing: digits and one dot with at most 2 decimals (so '12.345' cannot be typed). The
 * schema still checks what is submitted.
 */
export function acceptsAmountInput(text: string): boolean {
  return /^\d*(\.\d{0,2})?$/.test(text);
}

/** A decimal comma (the decimal keypad of a phone in many languages) typed as the dot it means. */
export function amountInput(text: string): string {
  return text.replace(/,/g, '.');
}

export interface WalletFormState {
  cardId: string | null;
  amount: number | null;
  /** The two authorisation checkboxes of auto-load. */
  authorisations: [boolean, boolean];
}

/** Create and edit set up auto-load: they need the two authorisations; top-up does not. */
export const needsAuthorisations = (mode: WalletMode) => mode !== 'top-up';

const validAmount = (amount: number | null) => amount !== null && amount >= MIN_AMOUNT && amount <= MAX_AMOUNT;

/**
 * Spec §5 "Wallet forms": create and edit need a card, an amount and the two authorisation
 * checkboxes ticked (auto-load); top-up needs only a card and an amount.
 */
export function canSubmit(mode: WalletMode, state: WalletFormState): boolean {
  if (!state.cardId || !validAmount(state.amount)) return false;
  return !needsAuthorisations(mode) || (state.authorisations[0] && state.authorisations[1]);
}

export const SUBMIT_LABEL: Record<WalletMode, string> = {
  create: 'Transfer Money and Create CreditCard Wallet',
  edit: 'Save',
  'top-up': 'Top-up',
};
