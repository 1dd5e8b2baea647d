//! How confirmation codes reach the user: e-mail or SMS. The choice shows at once (the cached profile
//! is patched before the call, spec §4 "Card actions"); a failure puts it back, fetches the profile
//! again and says so (spec §8 "Optimistic communication-method update fails").
import { useAppDispatch } from '../../../lib/store/hooks';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useChangeCommunicationMethodMutation } from '../api/accountApi';
import { classifyFailure } from '../model/failures';
import { METHOD_CHANGED, METHOD_NOT_CHANGED } from '../model/messages';

export type CommunicationMethodValue = 'email' | 'sms';

const OPTIONS: { value: CommunicationMethodValue; label: string }[] = [
  { value: 'email', label: 'E-mail' },
  { value: 'sms', label: 'SMS' },
];

export function CommunicationMethod({ value }: { value: string }) {
  const dispatch = useAppDispatch();
  const [change, changing] = useChangeCommunicationMethodMutation();

  const choose = async (method: CommunicationMethodValue) => {
    if (method === value) return;
    const result = await change({ communication_method: method });
    if (!('error' in result)) {
      dispatch(showSnackbar({ message: METHOD_CHANGED[method], type: 'success' }));
      return;
    }
    const failure = classifyFailure(result.error, {}, METHOD_NOT_CHANGED);
    if (failure.kind === 'message' || failure.kind === 'password-token')
      dispatch(showSnackbar({ message: failure.message, type: 'error' }));
  };

  return (
    <fieldset className="account-method" disabled={changing.isLoading}>
      <legend>Send confirmation codes by</legend>
      {OPTIONS.map((option) => (
        <label key={option.value} className="account-method__option">
          <input
            type="radio"
            name="communication-method"
            value={option.value}
            checked={value === option.value}
            onChange={() => void choose(option.value)}
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}
