//! `/transaction-info?id=`: one transaction (number, what was bought, when, the breakdown, what the
//! wallet and the card paid, the new storage date, or when it was refunded); without an id, every money movement with its
//! card or 'Wallet', a purchase opening its page.
import { Link, useSearchParams } from 'react-router';
import { BackControl } from '../../../components/BackControl';
import { formatMoney } from '../../../lib/format/money';
import { useGoBack } from '../../../lib/routing/useGoBack';
import { useMovementsQuery, useTransactionQuery, type Movement } from '../../../lib/api/payments';
import { formatDate, formatDateTime } from '../../../lib/format/format';
import { RowsTable } from '../components/BreakdownTable';
import { folderViewUrl, transactionRows, transactionUrl } from '../model/checkout';
import { movementAmount, movementLabel, movementMethod } from '../model/movements';
import '../checkout.css';

export function TransactionInfoPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  return id ? <OneTransaction id={id} /> : <Transactions />;
}

function BackLink() {
  const goBack = useGoBack('/stored-account');
  return <BackControl onClick={goBack} />;
}

function OneTransaction({ id }: { id: string }) {
  const transaction = useTransactionQuery(id);
  const t = transaction.data;
  return (
    <main className="page checkout">
      <BackLink />
      <h1>Transaction</h1>
      {transaction.isLoading && <p className="muted">Loading…</p>}
      {transaction.isError && <p className="muted">The transaction could not be loaded.</p>}
      {t && (
        <>
          <dl className="checkout-facts card">
            <div>
              <dt>Transaction Number</dt>
              <dd data-testid="transaction-number">{t.transactionNumber}</dd>
            </div>
            <div>
              <dt>Description</dt>
              <dd>{t.description}</dd>
            </div>
            <div>
              <dt>Date</dt>
              <dd>{formatDateTime(t.createdAt)}</dd>
            </div>
            {/* A refunded purchase bought nothing: the date it would have set is not shown. */}
            {t.storageExpiresAt && !t.refundedAt && (
              <div>
                <dt>Storage date</dt>
                <dd data-testid="transaction-storage-date">{formatDate(t.storageExpiresAt)}</dd>
              </div>
            )}
            {t.refundedAt && (
              <div>
                <dt>Refunded to the wallet</dt>
                <dd data-testid="transaction-refunded">{formatDateTime(t.refundedAt)}</dd>
              </div>
            )}
            <div>
              <dt>Paid from the wallet</dt>
              <dd data-testid="paid-from-wallet">{formatMoney(t.paidFromWallet)}</dd>
            </div>
            <div>
              <dt>Charged to the card</dt>
              <dd data-testid="charged-to-card">{formatMoney(t.chargedToCard)}</dd>
            </div>
          </dl>
          <RowsTable rows={transactionRows(t)} label="Price breakdown" />
          {t.folderId && <Link className="link-block" to={folderViewUrl(t.folderId)}>Open the folder</Link>}
        </>
      )}
    </main>
  );
}

function Transactions() {
  // Money moves outside this screen (webhooks, auto top-ups, promo credits): read afresh on each visit.
  const movements = useMovementsQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <main className="page checkout">
      <BackLink />
      <h1>Transactions</h1>
      {movements.isLoading && <p className="muted">Loading…</p>}
      {movements.isError && <p className="muted">Your transactions could not be loaded.</p>}
      {movements.data?.length === 0 && <p className="muted">No transactions yet.</p>}
      <ul className="checkout-list" aria-label="Transactions">
        {movements.data?.map((m) => (
          <li key={m.id} data-testid="movement" data-kind={m.kind} data-status={m.status}>
            <MovementRow movement={m} />
          </li>
        ))}
      </ul>
    </main>
  );
}

function MovementRow({ movement: m }: { movement: Movement }) {
  const declined = m.status === 'declined';
  const body = (
    <>
      <span className="movement-text">
        <span className="movement-label">{movementLabel(m)}</span>
        {m.description && m.description !== movementLabel({ kind: m.kind, status: 'completed' }) && (
          <span className="muted">{m.description}</span>
        )}
        <span className="muted">
          <span data-testid="movement-method">{movementMethod(m)}</span> · {formatDateTime(m.createdAt)}
        </span>
        {declined && m.declineMessage && <span className="movement-declined">{m.declineMessage}</span>}
      </span>
      <strong className={declined ? 'movement-amount movement-amount--declined' : 'movement-amount'}>{movementAmount(m)}</strong>
    </>
  );
  return m.transactionId ? (
    <Link to={transactionUrl(m.transactionId)}>{body}</Link>
  ) : (
    <div className="movement">{body}</div>
  );
}
