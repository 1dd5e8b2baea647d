//! The way back from an information page (Legal, FAQ, Tech Support, Contact Us), which shows no
//! bottom bar: to Settings, where a signed-in user opened it, or to the start screen. An installed
//! app has no browser back button, so without it these pages would be a dead end.
import { BackControl } from '../../../components/BackControl';
import { useAppSelector } from '../../../lib/store/hooks';
import { START } from '../../../lib/routing/accessTable';
import { selectSignedIn } from '../../../lib/session/loginInfoSlice';

const SETTINGS = '/dashboard/settings';

export function InfoBack() {
  const signedIn = useAppSelector(selectSignedIn);
  return signedIn ? <BackControl to={SETTINGS} label="Settings" /> : <BackControl to={START} label="Start" />;
}
