//! What a screen shows where a read failed: what could not be loaded (and, when no answer came,
//! spec §8's words for a lost connection) with Try Again, so the user is never left with a blank
//! screen or a reload as the only way on. A folder that is gone (404) gets `FolderGone` instead.
import { Link } from 'react-router';
import { errorStatus, NETWORK_LOST } from '../lib/api/errors';
import { PrimaryButton } from './PrimaryButton';

export function LoadFailed({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  return (
    <div className="load-failed" role="alert">
      <p className="muted">
        {what}
        {errorStatus(error) === undefined && ` ${NETWORK_LOST}`}
      </p>
      <PrimaryButton variant="secondary" onClick={onRetry}>
        Try Again
      </PrimaryButton>
    </div>
  );
}

/** True when a folder read failed because the folder is not there (deleted, or never the user's). */
export const isGone = (error: unknown) => errorStatus(error) === 404;

/** A folder screen whose folder is gone: says so, and leads back to My Files. */
export function FolderGone() {
  return (
    <main className="page files">
      <h1>Folder not found</h1>
      <p className="muted">It may have been deleted.</p>
      <Link className="link-block" to="/dashboard/my-files">
        Back to My Files
      </Link>
    </main>
  );
}
