//! The payment information form and add-card submission (spec §2 "Payment information / add-card
//! flow", §4): first and last name, the card fields with the brand icon, the billing address (its
//! own sub-screen), 'Use Previously Entered Address for Credit Card', 'Set as Default for
//! Payments' when allowed; before the first card, the one-time authorisation charge; leaving
//! asks first. With promo codes enabled the main button opens the promo dialog and a second
//! button proceeds without one.
//! Lives inside StripeElements.
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { EMPTY_ADDRESS, fullAddress, type Address } from '../../../components/address';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { formatMoney } from '../../../lib/format/money';
import { useMeQuery } from '../../../lib/api/me';
import { usePaymentMethodsQuery, usePricingQuery } from '../../../lib/api/payments';
import type { Profile } from '../../../lib/api/types';
import { ADD_CARD_MESSAGES, type AddCardOutcome } from '../model/addCard';
import { useAddCard } from '../model/useAddCard';
import { paymentInformationSchema, type PaymentInformationValues } from '../validation/billing';
import { BillingAddressScreen } from './BillingAddressScreen';
import { cardComplete, CardField, cardHasError, INITIAL_CARD_STATE, type CardState } from './CardField';
import { PromoAppliedDialog, PromoDialog } from './PromoDialogs';
import { Switch } from './Switch';
import { BackControl } from '../../../components/BackControl';
import { useEscape } from '../../../components/useEscape';
import '../cards.css';

export interface PaymentInformationProps {
  title?: string;
  submitLabel?: string;
  /** Show 'Set as Default for Payments' (on by default). */
  allowSetDefault?: boolean;
  promoEnabled?: boolean;
  /** Called after 'Leave' is confirmed. */
  onClose: () => void;
  /** An optional back button, confirmed with 'Out'. */
  onBack?: () => void;
  /** Called once the card has been added. */
  onConfirm: (outcome: Extract<AddCardOutcome, { kind: 'added' }>) => void;
}

/** Why 'Use Previously Entered Address for Credit Card' is off: the profile has no address to copy. */
export const NO_PROFILE_ADDRESS = 'No address is saved in your profile yet. Enter the billing address above.';

/** The profile's address as the form's fields, or undefined while it lacks a required part. */
/**
 * Spec §9: authorising a card for the first time charges $0.50 (the amount from the pricing
 * configuration). Said before the first card is saved, with where the money goes.
 */
export const firstAuthorisationNotice = (cents: number) =>
  `Saving your first card authorises it with a one-time ${formatMoney(cents)} charge. The ${formatMoney(cents)} stays yours as CreditCard Wallet credit.`;

export function savedAddress(profile: Profile['address'] | undefined): Address | undefined {
  if (!profile) return undefined;
  const address: Address = {
    foundAddress: '',
    country: profile.country ?? '',
    province: profile.province ?? '',
    street: profile.street ?? '',
    house: profile.house ?? '',
    apartmentNumber: profile.apartmentNumber ?? '',
    city: profile.city ?? '',
    zipCode: profile.zipCode ?? '',
  };
  const required = [address.country, address.province, address.street, address.house, address.city, address.zipCode];
  return required.every((part) => part.trim() !== '') ? address : undefined;
}

type Dialog = 'none' | 'leave' | 'out' | 'promo' | 'promo-applied';

const ADDRESS_KEYS = ['foundAddress', 'country', 'province', 'street', 'house', 'apartmentNumber', 'city', 'zipCode'] as const;

export function PaymentInformationForm({
  title = 'Payment information',
  submitLabel = 'Almost Done!',
  allowSetDefault = true,
  promoEnabled = false,
  onClose,
  onBack,
  onConfirm,
}: PaymentInformationProps) {
  const id = useId();
  const me = useMeQuery();
  const cards = usePaymentMethodsQuery();
  const pricing = usePricingQuery();
  const firstCard = cards.data?.length === 0;
  const { run, ready } = useAddCard();
  const [card, setCard] = useState<CardState>(INITIAL_CARD_STATE);
  const [cardFlowError, setCardFlowError] = useState<string>();
  const [dialog, setDialog] = useState<Dialog>('none');
  const [billingOpen, setBillingOpen] = useState(false);
  const [promoAmount, setPromoAmount] = useState(0);
  const [busy, setBusy] = useState(false);

  const form = useForm<PaymentInformationValues>({
    resolver: zodResolver(paymentInformationSchema),
    mode: 'onChange',
    defaultValues: {
      firstName: '',
      lastName: '',
      fullAddress: '',
      ...EMPTY_ADDRESS,
      useProfileAddress: false,
      setDefault: true,
    },
  });
  const { register, formState, setValue, setError, getValues, control } = form;
  const useProfile = useWatch({ control, name: 'useProfileAddress' });
  const billingLine = useWatch({ control, name: 'fullAddress' });

  const setAddress = (address: Address, line: string) => {
    for (const key of ADDRESS_KEYS) setValue(key, address[key], { shouldDirty: true });
    setValue('fullAddress', line, { shouldValidate: true, shouldDirty: true, shouldTouch: true });
  };

  const profileAddress = me.data ? savedAddress(me.data.address) : undefined;

  const toggleProfileAddress = (on: boolean) => {
    setValue('useProfileAddress', on);
    if (on && profileAddress) setAddress(profileAddress, fullAddress(profileAddress));
    else setAddress(EMPTY_ADDRESS, '');
  };

  const addTheCard = async () => {
    setBusy(true);
    try {
      const outcome = await run({ ...getValues(), setDefault: allowSetDefault && getValues('setDefault') });
      if (outcome.kind === 'added') {
        setDialog('none');
        onConfirm(outcome);
        return;
      }
      setDialog('none');
      if (outcome.kind === 'duplicate') setCardFlowError(ADD_CARD_MESSAGES.duplicateInline);
      if (outcome.kind === 'invalid') {
        for (const [field, message] of Object.entries(outcome.fields)) setError(field as 'firstName' | 'lastName', { message });
      }
    } finally {
      setBusy(false);
    }
  };

  // Escape asks before leaving, as the Close button does.
  useEscape(() => setDialog('leave'), dialog === 'none' && !billingOpen);

  const canSubmit = formState.isValid && !cardHasError(card) && !cardFlowError && cardComplete(card) && ready && !busy;

  const submit = form.handleSubmit(() => {
    if (promoEnabled) setDialog('promo');
    else void addTheCard();
  });

  return (
    <div className="payment-info">
      <header className="fullscreen__bar">
        {onBack && (
          <BackControl onClick={() => setDialog('out')} />
        )}
        <h1 id={`${id}-title`} className="fullscreen__title">
          {title}
        </h1>
        <button type="button" className="fullscreen__close" aria-label="Close" onClick={() => setDialog('leave')}>
          ×
        </button>
      </header>

      <form noValidate aria-labelledby={`${id}-title`} onSubmit={(e) => void submit(e)}>
        <TextField label="First Name" autoComplete="cc-given-name" maxLength={51} {...register('firstName')} error={formState.errors.firstName?.message} />
        <TextField label="Last Name" autoComplete="cc-family-name" maxLength={51} {...register('lastName')} error={formState.errors.lastName?.message} />
        <CardField
          state={card}
          flowError={cardFlowError}
          onChange={(update) => {
            setCard(update);
            setCardFlowError(undefined);
          }}
        />
        <div className={`field${formState.errors.fullAddress ? ' field--error' : ''}`}>
          <label htmlFor={`${id}-billing`}>Billing Address</label>
          <button
            id={`${id}-billing`}
            type="button"
            className="address-form__find"
            aria-invalid={Boolean(formState.errors.fullAddress)}
            onClick={() => setBillingOpen(true)}
          >
            {billingLine || <span className="muted">Billing Address</span>}
          </button>
          {formState.errors.fullAddress && <span className="field__error">{formState.errors.fullAddress.message}</span>}
        </div>
        <Switch
          label="Use Previously Entered Address for Credit Card"
          checked={useProfile}
          disabled={!profileAddress}
          hint={me.data && !profileAddress ? NO_PROFILE_ADDRESS : undefined}
          onChange={(e) => toggleProfileAddress(e.target.checked)}
        />
        {allowSetDefault && <Switch label="Set as Default for Payments" {...register('setDefault')} />}
        {firstCard && pricing.data && (
          <p className="payment-info__notice" data-testid="first-authorisation">
            {firstAuthorisationNotice(pricing.data.firstAuthorisation)}
          </p>
        )}
        <div className="payment-info__buttons">
          <PrimaryButton type="submit" disabled={!canSubmit} loading={busy && dialog === 'none'}>
            {submitLabel}
          </PrimaryButton>
          {promoEnabled && (
            <PrimaryButton variant="secondary" disabled={!canSubmit} onClick={() => void addTheCard()}>
              Proceed without a Promo Code
            </PrimaryButton>
          )}
        </div>
      </form>

      {billingOpen && (
        <BillingAddressScreen
          initial={Object.fromEntries(ADDRESS_KEYS.map((k) => [k, getValues(k)])) as Address}
          onBack={() => setBillingOpen(false)}
          onSave={(address) => {
            setBillingOpen(false);
            setAddress(address, address.fullAddress);
          }}
        />
      )}

      <PromoDialog
        isOpen={dialog === 'promo'}
        busy={busy}
        onApplied={(amount) => {
          setPromoAmount(amount);
          setDialog('promo-applied');
        }}
        onProceedWithout={() => void addTheCard()}
        onCancel={() => setDialog('none')}
      />
      <PromoAppliedDialog isOpen={dialog === 'promo-applied'} amount={promoAmount} busy={busy} onProceed={() => void addTheCard()} />

      <ConfirmDialog
        isOpen={dialog === 'leave'}
        title="Leave this page?"
        subTitle="Your progress and data will be lost."
        buttons={[
          { text: 'Leave', isHighlighted: true, onClick: onClose },
          { text: 'Cancel', onClick: () => setDialog('none') },
        ]}
      />
      <ConfirmDialog
        isOpen={dialog === 'out'}
        title="Leave this page?"
        subTitle="Your progress and data will be lost."
        buttons={[
          { text: 'Out', isHighlighted: true, onClick: () => onBack?.() },
          { text: 'Cancel', onClick: () => setDialog('none') },
        ]}
      />
    </div>
  );
}
