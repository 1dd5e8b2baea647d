//! `/walkthrough` (signed-in only): a short introduction in four steps — capture, storage period,
//! sharing, the CreditCard Wallet — with Next and Skip; the last step's 'Get Started' (and Skip)
//! go on to the payment details setup when the walkthrough follows sign-up, else to Home.
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { afterWalkthrough } from '../../../lib/routing/onboarding';
import '../info.css';

export interface WalkthroughStep {
  icon: string;
  title: string;
  text: string;
}

export const STEPS: WalkthroughStep[] = [
  {
    icon: '📷',
    title: 'Capture evidence',
    text: 'Take photos, videos and audio notes. Each file keeps the time and place it was captured and a SHA-256 fingerprint that shows it was not changed. No connection? Your captures wait on this device and upload later.',
  },
  {
    icon: '🗂️',
    title: 'Stored for your storage period',
    text: 'Your files are kept in folders until their storage date. Files about to expire are tagged ‘EXPIRES SOON’, and you can extend the storage period at any time for a fee.',
  },
  {
    icon: '🔗',
    title: 'Share authenticated copies',
    text: 'Share a folder or a file. Recipients see a watermarked copy: an authenticated copy names who it was generated for; an unauthenticated copy does not.',
  },
  {
    icon: '💳',
    title: 'CreditCard Wallet',
    text: 'Pay from a prepaid wallet and save an extra 10% on service fees. It tops itself up from your card by the amount you choose whenever the balance falls below $5.00.',
  },
];

export function WalkthroughPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [index, setIndex] = useState(0);
  const step = STEPS[index];
  const last = index === STEPS.length - 1;
  const done = () => {
    const next = afterWalkthrough(location.state);
    navigate(next.to, { replace: true, state: next.state });
  };
  if (!step) return null;

  return (
    <main className="page walkthrough">
      <section className="walkthrough__step" aria-roledescription="slide" aria-label={`Step ${index + 1} of ${STEPS.length}`}>
        <span className="walkthrough__icon" aria-hidden="true">
          {step.icon}
        </span>
        <h1>{step.title}</h1>
        <p>{step.text}</p>
      </section>
      <ol className="walkthrough__dots" aria-hidden="true">
        {STEPS.map((s, i) => (
          <li key={s.title} className={`walkthrough__dot${i === index ? ' walkthrough__dot--current' : ''}`} />
        ))}
      </ol>
      <div className="walkthrough__actions">
        {last ? (
          <PrimaryButton onClick={done}>Get Started</PrimaryButton>
        ) : (
          <>
            <PrimaryButton onClick={() => setIndex(index + 1)}>Next</PrimaryButton>
            <PrimaryButton variant="secondary" onClick={done}>
              Skip
            </PrimaryButton>
          </>
        )}
      </div>
    </main>
  );
}
