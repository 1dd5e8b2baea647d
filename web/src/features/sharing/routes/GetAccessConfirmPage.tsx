//! `/get-access-confirm?copyType=` (open to anyone): the code was right and the folder token is
//! kept; on to the shared folder of the copy type (authenticated or unauthenticated view).
import { Link, useSearchParams } from 'react-router';
import { useAppSelector } from '../../../lib/store/hooks';
import { START } from '../../../lib/routing/accessTable';
import { COPY_TYPE_LABELS, MESSAGES } from '../model/labels';
import { AUTH_SHARED_FOLDER, sharedFolderUrl, UNAUTH_SHARED_FOLDER } from '../model/paths';
import '../sharing.css';

export function GetAccessConfirmPage() {
  const [params] = useSearchParams();
  const token = useAppSelector((state) => state.loginInfo.accessFolderToken);
  const copyType = params.get('copyType');
  const known = copyType === 'authenticated' || copyType === 'unauthenticated';

  if (!token) {
    return (
      <main className="page sharing">
        <h1>Get Access</h1>
        <p>{MESSAGES.noAccess}</p>
        <Link className="link-block" to={START}>
          Back to the start
        </Link>
      </main>
    );
  }
  return (
    <main className="page sharing sharing-success">
      <h1>Access Granted</h1>
      <p>Your code is confirmed. You can now view the files shared with you.</p>
      {known && <span className={`watermark__badge watermark__badge--${copyType}`}>{COPY_TYPE_LABELS[copyType]}</span>}
      {known ? (
        <Link className="btn btn--primary" to={sharedFolderUrl(copyType)}>
          View Shared Files
        </Link>
      ) : (
        <>
          <Link className="btn btn--primary" to={AUTH_SHARED_FOLDER}>
            View {COPY_TYPE_LABELS.authenticated}
          </Link>
          <Link className="btn btn--secondary" to={UNAUTH_SHARED_FOLDER}>
            View {COPY_TYPE_LABELS.unauthenticated}
          </Link>
        </>
      )}
    </main>
  );
}
