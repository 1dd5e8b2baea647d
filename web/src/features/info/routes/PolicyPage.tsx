//! `/legal/policy` (open to anyone): the Privacy Policy of the evidence-capture service.
import { Link } from 'react-router';
import { InfoDocument, type Section } from '../components/InfoDocument';

const SECTIONS: Section[] = [
  {
    heading: '1. Who we are',
    paragraphs: [
      'Evidentia is an evidence capture, storage and sharing service. This policy says what personal data we keep, why, for how long, and who sees it.',
    ],
  },
  {
    heading: '2. What we store',
    paragraphs: [
      'Your account: username, e-mail address, phone number, first and last name, address, and how you want to receive codes (e-mail or SMS). Your password is stored only as a one-way hash.',
      'Your evidence: the photos, videos and audio you capture, their file names, and with each file the time it was captured, the place when you allow location access (coordinates, the nearest city and an address), and a SHA-256 fingerprint of its content.',
      'Your activity: sign-ins, failed sign-ins, changes to your account and codes sent, each with its time, the network address and the browser it came from, so that you can see your history and we can protect your account.',
      'Payments: the brand, last four digits and expiry of your saved cards, your CreditCard Wallet balance and your transactions. Full card numbers are held by Stripe, never by us.',
    ],
  },
  {
    heading: '3. Why we use it',
    paragraphs: [
      'To run the service you asked for: keep your files until their storage date, show them to you, make and deliver the copies you share, take the payments you confirm, send confirmation codes, and answer your messages. We do not sell your data and we do not use your evidence for advertising.',
    ],
  },
  {
    heading: '4. Captures made offline',
    paragraphs: [
      'A capture made without a connection waits on your device, in the browser’s storage, until it is uploaded. Until a file shows as uploaded it exists only on that device.',
    ],
  },
  {
    heading: '5. How long we keep it',
    paragraphs: [
      'Files are kept until the storage date of their folder, and longer if you extend the storage period for a fee. After the storage date passes without an extension they may be deleted. Your account details are kept while you have an account. Payment records are kept as long as tax and accounting law requires.',
      'If you delete your account, it is suspended for a grace period during which you can recover it. When the grace period ends, your account, folders and files are deleted.',
    ],
  },
  {
    heading: '6. Who sees it',
    paragraphs: [
      'The people you share with see a watermarked copy of what you shared: an authenticated copy shows who it was generated for, the recipient, the date and a transaction number; an unauthenticated copy does not name you. Participants of an organization see what the organization allows them to see.',
      'We use processors who act on our instructions: Stripe for card payments, and the providers that host our servers and storage and deliver our e-mail and SMS. We disclose data to authorities only when the law requires it.',
    ],
  },
  {
    heading: '7. Security',
    paragraphs: [
      'Data travels encrypted between your device and our servers. Access to your files needs your signed-in session or a share link you created. Signing out ends your session on the device; changing your password signs out every session.',
    ],
  },
  {
    heading: '8. Your rights',
    paragraphs: [
      'You can see and change your details in Settings, see your sign-in history, download your files, and delete your account. You can ask us for a copy of your data or for a correction that you cannot make yourself.',
    ],
  },
  {
    heading: '9. Contact',
    paragraphs: [
      <>
        For any question about your data, write to us through <Link to="/contact-us">Contact Us</Link>. See also the{' '}
        <Link to="/legal/terms">Terms of Use</Link>.
      </>,
    ],
  },
];

export function PolicyPage() {
  return <InfoDocument title="Privacy Policy" effective="Nov 21, 2026" sections={SECTIONS} />;
}
