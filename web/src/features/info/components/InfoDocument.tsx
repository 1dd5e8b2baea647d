//! A legal document: a back link to /legal, the title, the date it took effect, and its sections
//! as plain headings and paragraphs.
import type { ReactNode } from 'react';
import { BackControl } from '../../../components/BackControl';
import '../info.css';

export interface Section {
  heading: string;
  paragraphs: ReactNode[];
}

interface Props {
  title: string;
  effective: string;
  sections: Section[];
}

export function InfoDocument({ title, effective, sections }: Props) {
  return (
    <main className="page info-text">
      <BackControl to="/legal" label="Legal" />
      <h1>{title}</h1>
      <p className="muted">Effective {effective}</p>
      {sections.map((section) => (
        <section key={section.heading} aria-label={section.heading}>
          <h2>{section.heading}</h2>
          {section.paragraphs.map((paragraph, i) => (
            <p key={i}>{paragraph}</p>
          ))}
        </section>
      ))}
    </main>
  );
}
