//! The billing address sub-screen 'Credit Card Billing Address' (spec §2): the shared address
//! form, Save enabled once country, province, street, house, city and zip code are filled and no
//! field has an error; Save builds the one-line full address.
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { AddressForm, addressSchema, fullAddress, type Address } from '../../../components/address';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { BackControl } from '../../../components/BackControl';
import { useEscape } from '../../../components/useEscape';

const schema = addressSchema();

interface Props {
  initial: Address;
  onSave: (address: Address & { fullAddress: string }) => void;
  onBack: () => void;
}

export function BillingAddressScreen({ initial, onSave, onBack }: Props) {
  useEscape(onBack);
  const id = useId();
  const form = useForm<Address>({ resolver: zodResolver(schema), defaultValues: initial, mode: 'onChange' });
  const save = form.handleSubmit((values) => onSave({ ...values, fullAddress: fullAddress(values) }));
  return (
    <div className="fullscreen billing-address" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`}>
      <header className="fullscreen__bar">
        <BackControl onClick={onBack} />
        <h2 id={`${id}-title`} className="fullscreen__title">
          Credit Card Billing Address
        </h2>
      </header>
      <FormProvider {...form}>
        <form
          noValidate
          onSubmit={(e) => {
            e.stopPropagation();
            void save(e);
          }}
        >
          <AddressForm />
          <PrimaryButton type="submit" disabled={!form.formState.isValid}>
            Save
          </PrimaryButton>
        </form>
      </FormProvider>
    </div>
  );
}
