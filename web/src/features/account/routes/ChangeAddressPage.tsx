//! `/change-address`: the shared address form and picker (spec §2 "Address form", §5 address
//! rules), prefilled from the profile; Save sends PATCH accounts/address/change/, the server's field
//! errors go under their fields, and success returns to the account info.
import { zodResolver } from '@hookform/resolvers/zod';
import { FormProvider, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { AddressForm, addressSchema, type Address } from '../../../components/address';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { useMeQuery } from '../../../lib/api/me';
import type { PlacesProvider } from '../../../lib/places';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useChangeAddressMutation } from '../api/accountApi';
import { classifyFailure } from '../model/failures';
import { CHANGED, NOT_CHANGED } from '../model/messages';
import { ACCOUNT_INFO } from '../paths';
import { BackControl } from '../../../components/BackControl';
import '../account.css';

const schema = addressSchema();

/** The request's fields by the form's names. */
const FIELDS: Record<string, keyof Address> = {
  country: 'country',
  apartment_number: 'apartmentNumber',
  province: 'province',
  street: 'street',
  house: 'house',
  city: 'city',
  zip_code: 'zipCode',
};

interface Props {
  /** The places provider of the picker (the app's own when omitted). */
  provider?: PlacesProvider;
}

export function ChangeAddressPage({ provider }: Props) {
  const me = useMeQuery();
  const address = me.data?.address;
  return (
    <main className="page account">
      <BackControl to={ACCOUNT_INFO} label="Account Info" />
      <h1>Change Address</h1>
      {address ? (
        <AddressEditor initial={{ foundAddress: '', ...address }} provider={provider} />
      ) : me.isError ? (
        <>
          <p>Your details could not be loaded.</p>
          <PrimaryButton onClick={() => void me.refetch()}>Try again</PrimaryButton>
        </>
      ) : (
        <p className="muted">Loading…</p>
      )}
    </main>
  );
}

function AddressEditor({ initial, provider }: { initial: Address; provider?: PlacesProvider }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [change, changing] = useChangeAddressMutation();
  const form = useForm<Address>({ resolver: zodResolver(schema), defaultValues: initial, mode: 'onTouched' });

  const submit = form.handleSubmit(async (values) => {
    const result = await change({
      country: values.country.trim(),
      apartment_number: values.apartmentNumber.trim(),
      province: values.province.trim(),
      street: values.street.trim(),
      house: values.house.trim(),
      city: values.city.trim(),
      zip_code: values.zipCode.trim(),
    });
    if (!('error' in result)) {
      dispatch(showSnackbar({ message: CHANGED.address, type: 'success' }));
      navigate(ACCOUNT_INFO);
      return;
    }
    const failure = classifyFailure(result.error, FIELDS, NOT_CHANGED);
    if (failure.kind === 'fields') {
      let first = true;
      for (const [field, message] of Object.entries(failure.fields)) {
        form.setError(field as keyof Address, { message }, { shouldFocus: first });
        first = false;
      }
    } else if (failure.kind !== 'reported') dispatch(showSnackbar({ message: failure.message, type: 'error' }));
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <AddressForm provider={provider} />
        <PrimaryButton type="submit" loading={changing.isLoading}>
          Save
        </PrimaryButton>
      </form>
    </FormProvider>
  );
}
