//! `/faq` (open to anyone): questions about the product as built, in an accordion.
import { Link } from 'react-router';
import { Accordion, type AccordionItem } from '../components/Accordion';
import '../info.css';
import { InfoBack } from '../components/InfoBack';

export const FAQ: AccordionItem[] = [
  {
    id: 'offline',
    title: 'Can I capture evidence without a connection?',
    body: (
      <p>
        Yes. Photos, videos and audio captured offline wait on your device, even if you close or reload the page. When you are back
        online the app says ‘You have an unfinished process.’; tap Continue to upload them. Until a file shows ‘Uploaded’ it exists only on
        that device, so do not clear the browser’s data for this site before then.
      </p>
    ),
  },
  {
    id: 'resume',
    title: 'What happens if an upload stops half-way?',
    body: (
      <p>
        Large files are sent in parts. If the connection drops or the page reloads, the upload resumes where it stopped: the parts
        already sent are not sent again. A file marked ‘Error’ can be retaken.
      </p>
    ),
  },
  {
    id: 'storage-date',
    title: 'How long are my files kept?',
    body: (
      <p>
        Every folder is kept until its storage date, shown on the folder in My Files. Shortly before that date its files are tagged
        ‘EXPIRES SOON’. After the date passes they can no longer be opened until you extend the storage period.
      </p>
    ),
  },
  {
    id: 'extend',
    title: 'How do I extend the storage period?',
    body: (
      <p>
        Open the folder and choose to extend its storage date, pick the new period and pay the fee shown with your card or your
        CreditCard Wallet. You can extend before or after the date passes. See <Link to="/pricing-models">Pricing Models</Link> and the{' '}
        <Link to="/cost-estimator-tool">Cost Estimator</Link> for prices.
      </p>
    ),
  },
  {
    id: 'wallet',
    title: 'What is the CreditCard Wallet?',
    body: (
      <p>
        A prepaid balance for your payments. Charges are taken from the wallet first; if the balance is short, the rest is moved from
        the card you chose. With auto top-up on, the wallet is refilled by the amount you set ($10 to $100; presets $10, $25 and $50)
        whenever its balance falls below $5.00.
      </p>
    ),
  },
  {
    id: 'saving',
    title: 'Why pay with the wallet?',
    body: (
      <p>
        Paying through the CreditCard Wallet gives an extra 10% saving on service fees, plus savings on card processing fees, because
        your card is charged once per top-up rather than once per payment.
      </p>
    ),
  },
  {
    id: 'promo',
    title: 'How do I use a promo code?',
    body: (
      <p>
        When you add a card you can enter a promo code (three characters, a space, three characters). A valid code credits your
        CreditCard Wallet with its amount; your card is not charged until that balance is used.
      </p>
    ),
  },
  {
    id: 'cards',
    title: 'How do I manage my saved cards?',
    body: (
      <p>
        In Settings, open Payment Methods. You can add a card, set a card as the default for credit card payments, or remove a card
        that is not your default. Authorising a card for the first time charges $0.50. Card details are held by Stripe, not by us.
      </p>
    ),
  },
  {
    id: 'sharing',
    title: 'What is the difference between an authenticated and an unauthenticated copy?',
    body: (
      <p>
        A recipient of a shared folder or file sees a watermarked copy. An authenticated copy names who it was generated for, who it was
        sent to, when it was generated and its transaction number; an unauthenticated copy carries the same watermark without naming you.
        Choose the type of copy when you share.
      </p>
    ),
  },
  {
    id: 'integrity',
    title: 'How can someone tell a file was not changed?',
    body: (
      <p>
        With each file we keep a SHA-256 fingerprint of its content, computed when it was uploaded, with the time and place of the
        capture. The same file always gives the same fingerprint, so any change to it shows.
      </p>
    ),
  },
];

export function FaqPage() {
  return (
    <main className="page">
      <InfoBack />
      <h1>FAQ</h1>
      <Accordion items={FAQ} />
      <p className="page__footer">
        Did not find your answer? <Link to="/contact-us">Contact Us</Link>
      </p>
    </main>
  );
}
