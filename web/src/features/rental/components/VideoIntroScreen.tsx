//! The video capture intro screen (spec §2): title, Guide list, 'Play Video Guide', 'Take Video'
//! and "Don't show me this page again". For the interior only, a dialog first recommends keeping
//! the recording under 90 seconds (spec §9).
import { useState } from 'react';
import { useAppDispatch } from '../../../lib/store/hooks';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { introHidden } from '../../../lib/ui/uiSlice';
import type { VideoIntro } from '../model/sections';
import { GuidePreview } from './GuidePreview';
import { BackControl } from '../../../components/BackControl';

export const RECORDING_TIME_TITLE = 'Recording Time';

/** The dialog's sentence: 'The recommended recording time is under 90 seconds.' */
export function recordingTimeText(seconds: number): string {
  return `The recommended recording time is under ${seconds} seconds.`;
}

/** The interior's recording-time confirmation, shown before the intro or, with the intro hidden, before recording. */
export function RecordingTimeDialog({ seconds, onContinue, onCancel }: { seconds: number; onContinue: () => void; onCancel: () => void }) {
  return (
    <ConfirmDialog
      isOpen
      title={RECORDING_TIME_TITLE}
      subTitle={recordingTimeText(seconds)}
      buttons={[
        { text: 'Continue', onClick: onContinue, isHighlighted: true },
        { text: 'Cancel', onClick: onCancel },
      ]}
    />
  );
}

interface Props {
  intro: VideoIntro;
  onBack: () => void;
  onTakeVideo: () => void;
}

export function VideoIntroScreen({ intro, onBack, onTakeVideo }: Props) {
  const dispatch = useAppDispatch();
  const [confirmed, setConfirmed] = useState(intro.confirmMaxSeconds === undefined);
  const [dontShow, setDontShow] = useState(false);

  // The choice is kept when the user leaves the screen with the box ticked, either way.
  const leave = (then: () => void) => {
    if (dontShow) dispatch(introHidden(intro.id));
    then();
  };

  return (
    <main className="page rental rental-intro">
      <div className="rental__bar">
        <BackControl onClick={() => leave(onBack)} />
      </div>
      <h1>{intro.title}</h1>
      <section aria-labelledby="rental-intro-guide">
        <h2 id="rental-intro-guide" className="rental-intro__heading">
          Guide
        </h2>
        <ol className="rental-intro__steps">
          {intro.steps.map((step) => (
            <li key={step.text}>{step.text}</li>
          ))}
        </ol>
      </section>
      <GuidePreview intro={intro} />
      <label className="rental-intro__dont-show">
        <input type="checkbox" checked={dontShow} onChange={(e) => setDontShow(e.target.checked)} />
        Don&apos;t show me this page again
      </label>
      <PrimaryButton onClick={() => leave(onTakeVideo)}>Take Video</PrimaryButton>
      {!confirmed && intro.confirmMaxSeconds !== undefined && (
        <RecordingTimeDialog seconds={intro.confirmMaxSeconds} onContinue={() => setConfirmed(true)} onCancel={onBack} />
      )}
    </main>
  );
}
