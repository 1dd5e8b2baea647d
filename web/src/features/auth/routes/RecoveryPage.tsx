//! `/recovery/:type` (public-only, spec §2): the forgotten-username and forgotten-password screens;
//! any other type goes to log in.
import { Navigate, useParams } from 'react-router';
import { RecoveryPassword } from './RecoveryPassword';
import { RecoveryUsername } from './RecoveryUsername';

export { RECOVERY_PATHS } from './recoveryPaths';

export function RecoveryPage() {
  const { type } = useParams();
  if (type === 'username') return <RecoveryUsername />;
  if (type === 'password') return <RecoveryPassword />;
  return <Navigate to="/log-in" replace />;
}
