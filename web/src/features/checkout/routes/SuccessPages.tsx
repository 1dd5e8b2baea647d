//! `/extend-storage-success` (a folder's storage date moved: the new date) and `/payment-success`
//! (any other purchase), both with `?transactionId=` (spec §2). Opened without it (a bookmark, the
//! history) there is no payment to speak of: they go on to My Files and Home.
import { Link, Navigate, useSearchParams } from 'react-router';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { formatMoney } from '../../../lib/format/money';
import { useFolderQuery } from '../../../lib/api/evidence';
import { useTransactionQuery } from '../../../lib/api/payments';
import { formatDate } from '../../../lib/format/format';
import { folderViewUrl, transactionUrl } from '../model/checkout';
import '../checkout.css';

/** The purchase could not be read back: it was paid all the same. */
function DetailsFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="checkout-failure">
      <p className="muted">The payment went through. Its details could not be loaded.</p>
      <PrimaryButton variant="secondary" onClick={onRetry}>
        Try Again
      </PrimaryButton>
    </div>
  );
}

export function ExtendStorageSuccessPage() {
  const [params] = useSearchParams();
  const transactionId = params.get('transactionId') ?? '';
  const folderId = params.get('folderId') ?? '';
  const transaction = useTransactionQuery(transactionId, { skip: !transactionId });
  const folder = useFolderQuery(folderId, { skip: !folderId });
  if (!transactionId) return <Navigate to="/dashboard/my-files" replace />;
  // The purchase says the new date; the folder read before paying would still hold the old one.
  const date = transaction.data?.storageExpiresAt ?? null;
  return (
    <main className="page checkout checkout-success">
      <h1>Storage Date Extended</h1>
      {transaction.isError ? (
        <DetailsFailed onRetry={() => void transaction.refetch()} />
      ) : (
        <p>
          {folder.data ? <strong>{folder.data.name}</strong> : 'Your folder'} is now stored until{' '}
          <strong data-testid="extended-storage-date">{date ? formatDate(date) : '…'}</strong>.
        </p>
      )}
      {transaction.data && <p className="muted">Paid {formatMoney(transaction.data.total)}</p>}
      {folderId && (
        <Link to={folderViewUrl(folderId)} className="btn btn--primary">
          Open Folder
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

export function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const transactionId = params.get('transactionId') ?? '';
  const transaction = useTransactionQuery(transactionId, { skip: !transactionId });
  if (!transactionId) return <Navigate to="/dashboard/home" replace />;
  return (
    <main className="page checkout checkout-success">
      <h1>Payment Successful</h1>
      {transaction.isError && (
        <DetailsFailed onRetry={() => void transaction.refetch()} />
      )}
      {transaction.data && (
        <p>
          {transaction.data.description}: <strong>{formatMoney(transaction.data.total)}</strong>
        </p>
      )}
      {transactionId && (
        <Link to={transactionUrl(transactionId)} className="btn btn--secondary">
          Transaction Details
        </Link>
      )}
      <Link to="/dashboard/home" className="btn btn--primary">
        Done
      </Link>
    </main>
  );
}
