//! `/legal` (open to anyone): the Terms of Use and the Privacy Policy, and the other information
//! pages (FAQ, Tech Support, Contact Us).
import { Link } from 'react-router';
import '../info.css';
import { InfoBack } from '../components/InfoBack';

export const LEGAL_LINKS = [
  { to: '/legal/terms', label: 'Terms of Use' },
  { to: '/legal/policy', label: 'Privacy Policy' },
];

export const HELP_LINKS = [
  { to: '/faq', label: 'FAQ' },
  { to: '/tech-support', label: 'Tech Support' },
  { to: '/contact-us', label: 'Contact Us' },
];

export function LegalPage() {
  return (
    <main className="page">
      <InfoBack />
      <h1>Legal</h1>
      <nav aria-label="Legal documents">
        <ul className="info-links">
          {LEGAL_LINKS.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="info-link">
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <h2>Help</h2>
      <nav aria-label="Help">
        <ul className="info-links">
          {HELP_LINKS.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="info-link">
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </main>
  );
}
