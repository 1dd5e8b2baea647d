//! 'Play Video Guide' (spec §2 "Video capture intro screen"). There is no recorded guide video, so
//! this plays an illustrated preview instead, and says so: a drawing of the scene (a car's interior
//! from above, or its instrument panel) with a camera viewfinder that moves to each step of the
//! Guide list in turn while the step's text is shown. It is animated with CSS transitions and
//! stands still for people who ask for reduced motion (the steps still advance).
import { useEffect, useState } from 'react';
import type { VideoIntro } from '../model/sections';

/** How long each step is shown while playing. */
export const GUIDE_STEP_MS = 2800;

function InteriorScene() {
  return (
    <g className="guide-preview__scene">
      <rect x="24" y="6" width="52" height="90" rx="16" className="guide-preview__body" />
      <path d="M29 22 Q50 14 71 22" className="guide-preview__line" />
      <rect x="29" y="24" width="42" height="7" rx="2" className="guide-preview__part" />
      <circle cx="39" cy="35" r="5" className="guide-preview__line" />
      <rect x="29" y="40" width="17" height="15" rx="3" className="guide-preview__part" />
      <rect x="54" y="40" width="17" height="15" rx="3" className="guide-preview__part" />
      <rect x="29" y="58" width="42" height="14" rx="3" className="guide-preview__part" />
      <circle cx="36" cy="63" r="2.2" className="guide-preview__flaw" />
      <path d="M29 78 H71" className="guide-preview__line" />
      <rect x="31" y="80" width="38" height="11" rx="2" className="guide-preview__cargo" />
    </g>
  );
}

function DashboardScene() {
  const ticks = Array.from({ length: 9 }, (_, i) => {
    const angle = ((-225 + i * 33.75) * Math.PI) / 180;
    return { x1: 30 + Math.cos(angle) * 17, y1: 42 + Math.sin(angle) * 17, x2: 30 + Math.cos(angle) * 20, y2: 42 + Math.sin(angle) * 20 };
  });
  return (
    <g className="guide-preview__scene">
      <rect x="4" y="16" width="92" height="68" rx="12" className="guide-preview__body" />
      <circle cx="30" cy="42" r="21" className="guide-preview__part" />
      {ticks.map((t, i) => (
        <line key={i} {...t} className="guide-preview__line" />
      ))}
      <line x1="30" y1="42" x2="19" y2="33" className="guide-preview__needle" />
      <rect x="18" y="62" width="28" height="9" rx="1.5" className="guide-preview__display" />
      <text x="32" y="68.8" className="guide-preview__digits" textAnchor="middle">
        048213
      </text>
      <path d="M58 48 A13 13 0 0 1 82 48" className="guide-preview__line" />
      <text x="57" y="55" className="guide-preview__label">
        E
      </text>
      <text x="80" y="55" className="guide-preview__label">
        F
      </text>
      <line x1="70" y1="49" x2="76" y2="39" className="guide-preview__needle" />
      <rect x="58" y="65" width="24" height="8" rx="1.5" className="guide-preview__display" />
      <text x="70" y="71" className="guide-preview__label" textAnchor="middle">
        312 km
      </text>
    </g>
  );
}

interface Props {
  intro: VideoIntro;
}

export function GuidePreview({ intro }: Props) {
  const [playing, setPlaying] = useState(false);
  const [step, setStep] = useState(0);
  const steps = intro.steps;

  useEffect(() => {
    if (!playing) return;
    const timer = window.setTimeout(() => {
      if (step + 1 < steps.length) setStep(step + 1);
      else setPlaying(false);
    }, GUIDE_STEP_MS);
    return () => window.clearTimeout(timer);
  }, [playing, step, steps.length]);

  const play = () => {
    if (!playing && step === steps.length - 1) setStep(0);
    setPlaying(!playing);
  };

  const current = steps[step] ?? steps[0];
  const focus = current?.focus ?? { x: 50, y: 50, zoom: 1 };
  // The viewfinder shrinks as the camera moves closer.
  const frame = { transform: `translate(${focus.x}px, ${focus.y}px) scale(${1 / focus.zoom})` };

  return (
    <figure className={`guide-preview${playing ? ' guide-preview--playing' : ''}`}>
      <svg className="guide-preview__stage" viewBox="0 0 100 100" role="img" aria-label={`Illustration: ${intro.title}`}>
        {intro.scene === 'interior' ? <InteriorScene /> : <DashboardScene />}
        <g className="guide-preview__frame" style={frame}>
          <path d="M-18 -10 v-4 h6 M12 -14 h6 v4 M18 10 v4 h-6 M-12 14 h-6 v-4" className="guide-preview__corners" />
          <circle cx="-13" cy="-9" r="1.6" className="guide-preview__rec" />
        </g>
      </svg>
      <figcaption className="guide-preview__caption" aria-live="polite">
        <span className="guide-preview__step">
          Step {step + 1} of {steps.length}
        </span>{' '}
        {current?.text}
      </figcaption>
      <p className="guide-preview__note muted">An illustrated preview of the steps, not a recording.</p>
      <button type="button" className="btn btn--secondary" onClick={play}>
        {playing ? 'Pause Video Guide' : 'Play Video Guide'}
      </button>
    </figure>
  );
}
