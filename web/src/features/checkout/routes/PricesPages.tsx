//! The price screens, all from the one pricing configuration (payments/pricing) and the one
//! calculation (storage-price-prolong/calculate): `/pricing-models` (what everything costs),
//! `/pay-as-you-go` (a folder's extension by months, by card or from the wallet) and
//! `/cost-estimator-tool` (a size and months -> the breakdown).
import { useState } from 'react';
import { Link } from 'react-router';
import { formatMoney } from '../../../lib/format/money';
import { useGoBack } from '../../../lib/routing/useGoBack';
import { TextField } from '../../../components/TextField';
import { usePricingQuery, useStoragePriceQuery, type Pricing } from '../../../lib/api/payments';
import { MESSAGES } from '../../../lib/validation/rules';
import { BreakdownTable } from '../components/BreakdownTable';
import { DEFAULT_MONTHS, MonthsPicker } from '../components/MonthsPicker';
import { BackControl } from '../../../components/BackControl';
import '../checkout.css';

function Back() {
  const goBack = useGoBack('/dashboard/settings');
  return <BackControl onClick={goBack} />;
}

const percent = (value: number) => `${value}%`;

function useMonths() {
  const pricing = usePricingQuery();
  const options = pricing.data?.storage.monthsOptions.length ? pricing.data.storage.monthsOptions : DEFAULT_MONTHS;
  const [chosen, setChosen] = useState<number | null>(null);
  return { pricing, options, months: chosen ?? options[0] ?? 1, setMonths: setChosen };
}

export function PricingModelsPage() {
  const pricing = usePricingQuery();
  return (
    <main className="page checkout">
      <Back />
      <h1>Pricing Models</h1>
      {pricing.isLoading && <p className="muted">Loading…</p>}
      {pricing.isError && <p className="muted">The prices could not be loaded.</p>}
      {pricing.data && <PricingFacts pricing={pricing.data} />}
      <Link to="/pay-as-you-go" className="btn btn--secondary">
        Pay as You Go
      </Link>
      <Link to="/cost-estimator-tool" className="btn btn--secondary">
        Cost Estimator
      </Link>
    </main>
  );
}

function PricingFacts({ pricing: p }: { pricing: Pricing }) {
  return (
    <>
      <section className="card">
        <h2 className="wallet-section__title">Storage</h2>
        <dl className="checkout-facts">
          <div>
            <dt>Per folder, per month</dt>
            <dd data-testid="month-price">{formatMoney(p.storage.monthPrice)}</dd>
          </div>
          <div>
            <dt>Included per folder</dt>
            <dd>{p.storage.includedGb} GB</dd>
          </div>
          <div>
            <dt>Each further GB, per month</dt>
            <dd>{formatMoney(p.storage.extraGbMonthPrice)}</dd>
          </div>
          <div>
            <dt>Extensions</dt>
            <dd>{p.storage.monthsOptions.join(', ')} months</dd>
          </div>
        </dl>
      </section>
      <section className="card">
        <h2 className="wallet-section__title">Sharing</h2>
        <dl className="checkout-facts">
          <div>
            <dt>Authenticated copy</dt>
            <dd>{formatMoney(p.sharing.authenticated)}</dd>
          </div>
          <div>
            <dt>Unauthenticated copy</dt>
            <dd>{formatMoney(p.sharing.unauthenticated)}</dd>
          </div>
        </dl>
      </section>
      <section className="card">
        <h2 className="wallet-section__title">Fees</h2>
        <dl className="checkout-facts">
          <div>
            <dt>Service fee</dt>
            <dd>{percent(p.serviceFeePercent)}</dd>
          </div>
          <div>
            <dt>Card processing fee</dt>
            <dd>
              {percent(p.cardProcessingPercent)} + {formatMoney(p.cardProcessingFixed)}
            </dd>
          </div>
          <div>
            <dt>First authorisation of a card</dt>
            <dd>{formatMoney(p.firstAuthorisation)}</dd>
          </div>
        </dl>
      </section>
      <section className="card">
        <h2 className="wallet-section__title">CreditCard Wallet</h2>
        <p>
          Paying from the wallet saves {percent(p.walletServiceFeeSavingPercent)} of the service fee and the whole card processing fee. The wallet tops
          itself up by your chosen amount ({formatMoney(p.topUpMin)} to {formatMoney(p.topUpMax)}) whenever its balance falls below{' '}
          {formatMoney(p.autoTopUpThreshold)}.
        </p>
        <Link to="/stored-account" className="link-block">
          CreditCard Wallet
        </Link>
      </section>
    </>
  );
}

export function PayAsYouGoPage() {
  const { options, months, setMonths } = useMonths();
  const price = useStoragePriceQuery({ months });
  return (
    <main className="page checkout">
      <Back />
      <h1>Pay as You Go</h1>
      <p>
        No subscription: you pay when you keep a folder longer. Each extension is paid by card, or from your CreditCard Wallet at a lower price.
      </p>
      <MonthsPicker options={options} value={months} onChange={setMonths} />
      {price.isError && <p className="muted">The price could not be calculated.</p>}
      {price.data && <BreakdownTable breakdown={price.data} via="both" label="Price of one folder" />}
      <Link to="/cost-estimator-tool" className="link-block">
        Estimate the cost of a larger folder
      </Link>
    </main>
  );
}

export const GB = 1_000_000_000;
export const MAX_ESTIMATE_GB = 10_000;

/** The size field: a number of GB from 0 to 10,000 with up to 2 decimals, or its message. */
export function sizeError(text: string): string | undefined {
  if (!text.trim()) return MESSAGES.required;
  if (!/^\d+(\.\d{1,2})?$/.test(text.trim())) return 'Enter a size in GB, e.g. 2.5';
  if (Number(text) > MAX_ESTIMATE_GB) return 'Maximum 10000 GB';
  return undefined;
}

export function CostEstimatorPage() {
  const { options, months, setMonths } = useMonths();
  const [size, setSize] = useState('1');
  const error = sizeError(size);
  const sizeBytes = error ? 0 : Math.round(Number(size) * GB);
  const price = useStoragePriceQuery({ size_bytes: sizeBytes, months }, { skip: Boolean(error) });
  return (
    <main className="page checkout">
      <Back />
      <h1>Cost Estimator</h1>
      <TextField label="Folder size, GB" inputMode="decimal" value={size} error={error} onChange={(e) => setSize(e.target.value)} />
      <MonthsPicker options={options} value={months} onChange={setMonths} />
      {price.isError && !error && <p className="muted">The price could not be calculated.</p>}
      {price.data && !error && <BreakdownTable breakdown={price.data} via="both" label="Estimated cost" />}
    </main>
  );
}
