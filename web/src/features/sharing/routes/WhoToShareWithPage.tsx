//! `/who-you-want-to-share/:folderId`, the third step of sharing: the recipients, by e-mail or by
//! phone (spec §5 rules and messages), at most 20, each once; the price of the copies from
//! payments/sharing-price/calculate/ by card and from the CreditCard Wallet; then checkout.
import { Navigate, useNavigate, useParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../lib/store/hooks';
import { BackControl } from '../../../components/BackControl';
import { formatMoney } from '../../../lib/format/money';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { useSharingPriceQuery } from '../../../lib/api/payments';
import {
  MAX_RECIPIENTS,
  recipientAdded,
  recipientRemoved,
  recipientText,
  sameRecipient,
  selectDraftOf,
  type CopyType,
  type DraftRecipient,
  type SharingDraft,
} from '../../../lib/sharing/draft';
import { RecipientForm } from '../components/RecipientForm';
import { COPY_TYPE_LABELS, MESSAGES, plural } from '../model/labels';
import { sharingCheckoutUrl, shareFilesUrl, typeOfCopyUrl } from '../model/paths';
import '../sharing.css';


export function WhoToShareWithPage() {
  const { folderId = '' } = useParams();
  const draft = useAppSelector(selectDraftOf(folderId));
  if (!draft) return <Navigate to={shareFilesUrl(folderId)} replace />;
  if (!draft.copyType) return <Navigate to={typeOfCopyUrl(folderId)} replace />;
  return <WhoToShareWith folderId={folderId} draft={draft} copyType={draft.copyType} />;
}

function WhoToShareWith({ folderId, draft, copyType }: { folderId: string; draft: SharingDraft; copyType: CopyType }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const count = draft.recipients.length;
  const price = useSharingPriceQuery({ copy_type: copyType, recipients: count }, { skip: count === 0 });
  const full = count >= MAX_RECIPIENTS;

  const add = (recipient: DraftRecipient): string | null => {
    if (draft.recipients.some((r) => sameRecipient(r, recipient))) return MESSAGES.duplicateRecipient;
    if (full) return MESSAGES.tooManyRecipients;
    dispatch(recipientAdded(recipient));
    return null;
  };

  return (
    <main className="page sharing">
      <BackControl to={typeOfCopyUrl(folderId)} label="Type of Copy" />
      <h1>Who You Want to Share With</h1>
      <p className="muted">
        {COPY_TYPE_LABELS[copyType]} of {draft.wholeFolder ? 'the whole folder' : plural(draft.itemIds.length, 'file')}. Each recipient gets a
        message with a link and a transaction number of their own.
      </p>
      <RecipientForm onAdd={add} disabled={full} />
      {full && <p className="muted">{MESSAGES.tooManyRecipients}</p>}

      <h2 className="sharing-subtitle">Recipients</h2>
      {count === 0 && <p className="muted">{MESSAGES.noRecipients}</p>}
      <ul className="sharing-recipients" aria-label="Recipients">
        {draft.recipients.map((recipient, index) => {
          const text = recipientText(recipient);
          return (
            <li key={text} className="sharing-recipient">
              <span className="sharing-recipient__to">{text}</span>
              <button type="button" className="sharing-remove" aria-label={`Remove ${text}`} onClick={() => dispatch(recipientRemoved(index))}>
                ×
              </button>
            </li>
          );
        })}
      </ul>

      {count > 0 && (
        <section className="card sharing-price" aria-label="Price">
          {price.isFetching && !price.currentData && <p className="muted">Calculating…</p>}
          {price.isError && (
            <div className="sharing-failure">
              <p className="muted">The price could not be calculated.</p>
              <PrimaryButton variant="secondary" onClick={() => void price.refetch()}>
                Try again
              </PrimaryButton>
            </div>
          )}
          {price.currentData && !price.isError && (
            <dl className="sharing-facts">
              <div>
                <dt>For {plural(count, 'recipient')}, by card</dt>
                <dd data-testid="share-price-card">{formatMoney(price.currentData.total)}</dd>
              </div>
              <div>
                <dt>From the CreditCard Wallet</dt>
                <dd data-testid="share-price-wallet">{formatMoney(price.currentData.walletTotal)}</dd>
              </div>
            </dl>
          )}
        </section>
      )}

      <PrimaryButton disabled={count === 0} onClick={() => void navigate(sharingCheckoutUrl(folderId))}>
        Continue to Checkout
      </PrimaryButton>
    </main>
  );
}
