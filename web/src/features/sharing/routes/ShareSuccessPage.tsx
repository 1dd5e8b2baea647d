//! `/share-success?folderId=&shareId=&transactionId=`: a paid share, its copy type, and each
//! recipient with their transaction number (from the folder's shares, so a reload shows it too);
//! back to the folder. Opened without its folder and share (a bookmark, the history) it goes on to
//! My Files.
import { Link, Navigate, useSearchParams } from 'react-router';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { formatDateTime } from '../../../lib/format/format';
import { useFolderSharesQuery } from '../api/sharingApi';
import { COPY_TYPE_LABELS, plural } from '../model/labels';
import { folderViewUrl, transactionUrl } from '../model/paths';
import '../sharing.css';

export function ShareSuccessPage() {
  const [params] = useSearchParams();
  const folderId = params.get('folderId') ?? '';
  const shareId = params.get('shareId') ?? '';
  const transactionId = params.get('transactionId') ?? '';
  const shares = useFolderSharesQuery(folderId, { skip: !folderId });
  const share = shares.data?.find((s) => s.id === shareId);
  if (!folderId || !shareId) return <Navigate to="/dashboard/my-files" replace />;

  return (
    <main className="page sharing sharing-success">
      <h1>Shared</h1>
      {shares.isLoading && <p className="muted">Loading…</p>}
      {shares.isError && (
        <div className="sharing-failure">
          <p className="muted">The share could not be loaded.</p>
          <PrimaryButton variant="secondary" onClick={() => void shares.refetch()}>
            Try again
          </PrimaryButton>
        </div>
      )}
      {shares.isSuccess && !share && <p className="muted">The share was paid for. Its recipients are listed in the folder.</p>}
      {share && (
        <>
          <p>
            {COPY_TYPE_LABELS[share.copyType]} of {plural(share.itemCount, 'file')} sent on {formatDateTime(share.createdAt)}. Each recipient gets a
            message with a link and a code to open it.
          </p>
          <ul className="sharing-recipients" aria-label="Recipients">
            {share.recipients.map((recipient) => (
              <li key={recipient.id} className="sharing-recipient sharing-recipient--column">
                <span className="sharing-recipient__to">{recipient.sentTo}</span>
                <span className="muted">
                  Transaction Number <strong data-testid="recipient-transaction-number">{recipient.transactionNumber}</strong>
                </span>
              </li>
            ))}
          </ul>
          <p className="muted">Payment {share.paymentTransactionNumber}</p>
        </>
      )}
      {folderId && (
        <Link to={folderViewUrl(folderId)} className="btn btn--primary">
          Back to the Folder
        </Link>
      )}
      {transactionId && (
        <Link to={transactionUrl(transactionId)} className="btn btn--secondary">
          Transaction Details
        </Link>
      )}
    </main>
  );
}
