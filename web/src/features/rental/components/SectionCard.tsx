//! One section of a rental capture: what to capture, its progress and captures, and the buttons
//! that open the capture screen for it.
import { PrimaryButton } from '../../../components/PrimaryButton';
import { progressLabel, type SectionProgress } from '../model/progress';
import type { CaptureMode } from '../model/rental';
import type { SectionDef } from '../model/sections';
import { ItemThumb } from './ItemThumb';

interface Props {
  progress: SectionProgress;
  onCapture: (section: SectionDef, mode: CaptureMode) => void;
}

export function SectionCard({ progress, onCapture }: Props) {
  const { section } = progress;
  const headingId = `rental-section-${section.id}`;
  const need =
    section.required === 0
      ? 'Only if there is any. Skip it when there is none.'
      : section.mode === 'photo'
        ? `At least ${section.required} photos:`
        : 'One video:';
  return (
    <section className={`rental-section${progress.complete ? ' rental-section--complete' : ''}`} aria-labelledby={headingId}>
      <div className="rental-section__head">
        <h2 id={headingId} className="rental-section__title">
          {section.title}
        </h2>
        <span className="rental-section__status" data-testid={`progress-${section.id}`}>
          {progressLabel(progress)}
        </span>
      </div>
      <p className="rental-section__need muted">{need}</p>
      <ul className="rental-section__shots">
        {section.shots.map((shot) => (
          <li key={shot}>{shot}</li>
        ))}
      </ul>
      {progress.items.length > 0 && (
        <ul className="rental-thumbs" aria-label={`${section.title} captures`}>
          {progress.items.map((item) => (
            <li key={item.id}>
              <ItemThumb item={item} />
            </li>
          ))}
        </ul>
      )}
      {progress.rejected > 0 && (
        <p className="field__error" role="alert">
          {progress.rejected === 1 ? '1 capture was' : `${progress.rejected} captures were`} rejected by the integrity check. Please take{' '}
          {progress.rejected === 1 ? 'it' : 'them'} again.
        </p>
      )}
      <div className="rental-section__actions">
        <PrimaryButton variant={progress.complete ? 'secondary' : 'primary'} onClick={() => onCapture(section, section.mode)}>
          {section.mode === 'video' ? 'Take Video' : 'Take Photos'}
        </PrimaryButton>
        {section.extra && (
          <PrimaryButton variant="secondary" onClick={() => onCapture(section, section.extra?.mode ?? 'video')}>
            {section.extra.label}
          </PrimaryButton>
        )}
      </div>
    </section>
  );
}
