//! `/legal/terms` (open to anyone): the Terms of Use of the evidence-capture service.
import { Link } from 'react-router';
import { InfoDocument, type Section } from '../components/InfoDocument';

const SECTIONS: Section[] = [
  {
    heading: '1. The service',
    paragraphs: [
      'Evidentia lets you capture photo, video and audio evidence with your device, keep it in folders for a storage period, extend that period, and share copies of it. These Terms of Use apply to everyone who uses the app, whether signed in or not. By creating an account or using the app you accept them.',
    ],
  },
  {
    heading: '2. Your account',
    paragraphs: [
      'You must give true details when you sign up and keep your password to yourself. You are responsible for what is done with your account. If you think someone else has used it, change your password and contact us straight away.',
      'An organization account is opened by its owner, who is responsible for the participants it invites and for what they capture on its behalf.',
    ],
  },
  {
    heading: '3. What you capture',
    paragraphs: [
      'You keep every right you have in the media you capture. You give us only the permission we need to store it, show it to you, make the copies you ask for, and deliver them to the people you choose.',
      'Capture only what you are allowed to capture. Respect the privacy of other people and the law of the place where you record. Do not use the service for anything unlawful, to harass anyone, or to store content you have no right to keep.',
    ],
  },
  {
    heading: '4. What a record proves',
    paragraphs: [
      'With each file we record the time your device captured it, the place when you allow location access, and a SHA-256 fingerprint of its content computed when it was uploaded. The fingerprint shows that the file has not changed since then. It does not prove what the file shows, or that the time and place your device reported were right; how much weight a record carries is for whoever relies on it to decide.',
    ],
  },
  {
    heading: '5. Storage periods and fees',
    paragraphs: [
      'Each folder is kept until the storage date shown on it. Before that date the app tags its files as expiring soon. You can extend the storage period for the fee shown before you pay. When the storage date passes and the period has not been extended, the files can no longer be opened and may be deleted.',
      'Prices are shown in US dollars in the app before you confirm a payment. Paying with the CreditCard Wallet gives an extra 10% saving on service fees.',
    ],
  },
  {
    heading: '6. Payments and the CreditCard Wallet',
    paragraphs: [
      'Card payments are processed by Stripe; we never see or store your full card number. Authorising a card for the first time charges $0.50. The CreditCard Wallet is a prepaid balance: charges are taken from it first, and when you turn on auto top-up it is refilled from your chosen card by the amount you set whenever the balance falls below $5.00. Promo codes credit the wallet and have no cash value.',
      'A payment for a storage extension that cannot be applied, for example because the folder no longer exists, is refunded to your wallet.',
    ],
  },
  {
    heading: '7. Sharing',
    paragraphs: [
      'When you share a folder or a file, the recipient sees a watermarked copy: an authenticated copy, which names who it was generated for, or an unauthenticated copy. You decide who receives a copy and you are responsible for sharing only what you may share. A copy that has been sent may be kept by its recipient; we cannot recall it.',
    ],
  },
  {
    heading: '8. Deleting your account',
    paragraphs: [
      'You can delete your account from Settings at any time and tell us why. The account is first suspended for a grace period, during which you can recover it by signing in again. When the grace period ends, your account, folders and files are deleted for good and cannot be restored. If money is left in your CreditCard Wallet, write to us through Contact Us before you delete the account.',
    ],
  },
  {
    heading: '9. Availability and liability',
    paragraphs: [
      'We work to keep the service running and your files safe, but we cannot promise that it will always be available or free of errors. Keep your own copy of anything you cannot afford to lose. To the extent the law allows, we are not liable for indirect losses, and our total liability is limited to the fees you paid us in the twelve months before the claim.',
      'We may suspend an account that breaks these terms. We may change these terms; we will tell you in the app before a change that affects you takes effect.',
    ],
  },
  {
    heading: '10. Contact',
    paragraphs: [
      <>
        Questions about these terms: write to us through <Link to="/contact-us">Contact Us</Link>. See also the{' '}
        <Link to="/legal/policy">Privacy Policy</Link>.
      </>,
    ],
  },
];

export function TermsPage() {
  return <InfoDocument title="Terms of Use" effective="Nov 21, 2026" sections={SECTIONS} />;
}
