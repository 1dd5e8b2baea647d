//! The steps a new account is led through after sign-up: the walkthrough, then the payment
//! details setup, then Home; each can be skipped. The sequence travels in the navigation state,
//! so the walkthrough opened any other way ends at Home as before.
import { HOME } from './accessTable';

export const WALKTHROUGH = '/walkthrough';
export const PAYMENT_DETAILS_SETUP = '/payment-details-setup';

/** The navigation state of a step of the onboarding. */
export interface OnboardingState {
  onboarding: true;
}

export const ONBOARDING: OnboardingState = { onboarding: true };

export function isOnboarding(state: unknown): state is OnboardingState {
  return Boolean(state && typeof state === 'object' && 'onboarding' in state && state.onboarding === true);
}

/** Where the walkthrough goes when it ends or is skipped. */
export function afterWalkthrough(state: unknown): { to: string; state?: OnboardingState } {
  return isOnboarding(state) ? { to: PAYMENT_DETAILS_SETUP, state: ONBOARDING } : { to: HOME };
}
