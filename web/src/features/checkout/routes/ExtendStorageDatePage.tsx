//! `/extend-storage-date/:folderId`: choose how many months to add (the pricing configuration's
//! options); shows the folder's current and new storage date and the price breakdown
//! (storage-price-prolong/calculate), then goes to checkout.
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { FolderGone, isGone, LoadFailed } from '../../../components/LoadFailed';
import { useFolderQuery } from '../../../lib/api/evidence';
import { usePricingQuery, useStoragePriceQuery } from '../../../lib/api/payments';
import { formatDate } from '../../../lib/format/format';
import { BreakdownTable } from '../components/BreakdownTable';
import { DEFAULT_MONTHS, MonthsPicker } from '../components/MonthsPicker';
import { checkoutUrl, folderViewUrl } from '../model/checkout';
import { BackControl } from '../../../components/BackControl';
import '../checkout.css';

export function ExtendStorageDatePage() {
  const { folderId = '' } = useParams();
  const navigate = useNavigate();
  const folder = useFolderQuery(folderId, { skip: !folderId });
  const pricing = usePricingQuery();
  const options = pricing.data?.storage.monthsOptions.length ? pricing.data.storage.monthsOptions : DEFAULT_MONTHS;
  const [chosen, setChosen] = useState<number | null>(null);
  const months = chosen ?? options[0] ?? 1;
  const price = useStoragePriceQuery({ folder_id: folderId, months }, { skip: !folderId });
  const current = price.data?.currentStorageDate ?? folder.data?.expirationDate ?? null;
  // The figures of the months now chosen only: while another choice is priced, or when its price
  // failed, the last one's must not stand beside it.
  const quote = price.currentData;

  if (folder.isError && isGone(folder.error)) return <FolderGone />;

  return (
    <main className="page checkout">
      <BackControl to={folderViewUrl(folderId)} label={folder.data?.name ?? 'Folder'} />
      <h1>Extend Storage Date</h1>
      {folder.isError && <LoadFailed what="The folder could not be loaded." error={folder.error} onRetry={() => void folder.refetch()} />}
      <section aria-label="Months" className="checkout-section">
        <p className="muted">Keep this folder for</p>
        <MonthsPicker options={options} value={months} onChange={setChosen} />
      </section>
      <dl className="checkout-dates card">
        <div>
          <dt>Current storage date</dt>
          <dd data-testid="current-storage-date">{current ? formatDate(current) : '—'}</dd>
        </div>
        <div>
          <dt>New storage date</dt>
          <dd data-testid="new-storage-date">{quote?.newStorageDate ? formatDate(quote.newStorageDate) : '—'}</dd>
        </div>
      </dl>
      {price.isFetching && !quote && <p className="muted">Calculating…</p>}
      {price.isError && !price.isFetching && <p className="muted">The price could not be calculated.</p>}
      {quote && <BreakdownTable breakdown={quote} via="both" />}
      <PrimaryButton disabled={!quote || price.isFetching} onClick={() => void navigate(checkoutUrl({ kind: 'storage_extension', folderId, months }))}>
        Continue to Checkout
      </PrimaryButton>
    </main>
  );
}
