//! The address form (spec §2 "Address form"): 'Find Your Address' opens the address picker, the
//! divider 'Or Type Manually', the info banner 'All fields except Unit/Suite are required.' and
//! the fields of spec §3 "Address". It lives inside the caller's react-hook-form FormProvider,
//! whose values hold the Address fields at the top level (billing address, change address).
//! The zip code of a country with a postal pattern (spec §5, postal.ts) is formatted as it is typed.
import { useEffect, useState, type ChangeEvent } from 'react';
import { useFormContext, useWatch, type FieldPath, type FieldValues } from 'react-hook-form';
import { InfoBanner } from '../InfoBanner';
import { TextField } from '../TextField';
import type { PlacesProvider } from '../../lib/places';
import { AddressPicker } from './AddressPicker';
import { formatPostal, postalPatternFor } from './postal';
import { addressFromPlace, ADDRESS_FIELDS, type Address } from './rules';
import './address.css';

export const ADDRESS_LABELS: Record<(typeof ADDRESS_FIELDS)[number], string> = {
  country: 'Country',
  province: 'Province',
  street: 'Street',
  house: 'House',
  apartmentNumber: 'Unit/Suite',
  city: 'City',
  zipCode: 'Zip Code',
};

const MAX_LENGTH: Record<(typeof ADDRESS_FIELDS)[number], number> = {
  country: 50,
  province: 30,
  street: 50,
  house: 9,
  apartmentNumber: 9,
  city: 50,
  zipCode: 9,
};

interface Props {
  provider?: PlacesProvider;
  /** Called after a place has filled the fields. */
  onPlaceChosen?: (address: Address) => void;
}

export function AddressForm({ provider, onPlaceChosen }: Props) {
  const { register, formState, setValue, control, getFieldState, trigger } = useFormContext<Address & FieldValues>();
  const [picking, setPicking] = useState(false);
  const found = useWatch({ control, name: 'foundAddress' });
  const country = useWatch({ control, name: 'country' });
  const pattern = postalPatternFor(country ?? '');

  // A zip code error may belong to the previous country's pattern: check it again for the new one.
  useEffect(() => {
    if (getFieldState('zipCode').error) void trigger('zipCode');
  }, [pattern, getFieldState, trigger]);

  const fill = (address: Address) => {
    for (const [key, value] of Object.entries(address)) {
      setValue(key as FieldPath<Address>, value, { shouldValidate: key !== 'foundAddress', shouldDirty: true, shouldTouch: true });
    }
    onPlaceChosen?.(address);
  };

  return (
    <div className="address-form">
      <div className="field">
        <label htmlFor="address-find">Find Your Address</label>
        <button id="address-find" type="button" className="address-form__find" onClick={() => setPicking(true)}>
          {found || <span className="muted">Type your Address</span>}
        </button>
      </div>
      <div className="address-form__divider" role="separator">
        <span>Or Type Manually</span>
      </div>
      <InfoBanner title="All fields except Unit/Suite are required." type="info" />
      {ADDRESS_FIELDS.map((field) => {
        const registration = register(field);
        const masked = field === 'zipCode' && pattern;
        return (
          <TextField
            key={field}
            label={ADDRESS_LABELS[field]}
            {...registration}
            {...(masked
              ? {
                  maxLength: pattern.length,
                  placeholder: pattern.replace(/[dx]/g, '_'),
                  inputMode: pattern.includes('x') ? 'text' : 'numeric',
                  autoCapitalize: 'characters',
                  onChange: (e: ChangeEvent<HTMLInputElement>) => {
                    const input = e.target;
                    const { value, caret } = formatPostal(pattern, input.value, input.selectionStart ?? input.value.length);
                    if (value !== input.value) {
                      input.value = value;
                      input.setSelectionRange(caret, caret);
                    }
                    return registration.onChange(e);
                  },
                }
              : { maxLength: MAX_LENGTH[field] + 1 })}
            error={formState.errors[field]?.message as string | undefined}
          />
        );
      })}
      {picking && (
        <AddressPicker
          provider={provider}
          onClose={() => setPicking(false)}
          onSelect={(details, suggestion) => {
            setPicking(false);
            fill(addressFromPlace(details, suggestion.label));
          }}
        />
      )}
    </div>
  );
}
