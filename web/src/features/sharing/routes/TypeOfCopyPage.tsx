//! `/type-of-copy/:folderId`, the second step of sharing: 'Authenticated Copy' (it shows 'Generated
//! for' with the owner's name from accounts/me) or 'Unauthenticated Copy' (spec §2, §6), with the
//! price per recipient and a preview of the watermark banner each copy will carry.
import { useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../lib/store/hooks';
import { BackControl } from '../../../components/BackControl';
import { formatMoney } from '../../../lib/format/money';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { useMeQuery } from '../../../lib/api/me';
import { usePricingQuery } from '../../../lib/api/payments';
import { copyTypeChosen, selectDraftOf } from '../../../lib/sharing/draft';
import type { CopyType } from '../api/types';
import { WatermarkBanner } from '../components/WatermarkBanner';
import { COPY_TYPE_LABELS, WATERMARK_LABELS } from '../model/labels';
import { ownerName } from '../model/owner';
import { recipientsUrl, shareFilesUrl } from '../model/paths';
import '../sharing.css';

/** What the preview shows where each copy will have its own value. */
export const PREVIEW = {
  sentTo: "The recipient's e-mail or phone",
  generatedOn: 'When the copy is made',
  transactionNumber: 'One for each recipient',
} as const;

const DESCRIPTIONS: Record<CopyType, string> = {
  authenticated: 'Carries your name, and anyone can verify it with its transaction number.',
  unauthenticated: 'Carries no name. It can also be shown through a public link.',
};

export function TypeOfCopyPage() {
  const { folderId = '' } = useParams();
  const draft = useAppSelector(selectDraftOf(folderId));
  // Arrived without choosing files (a bookmark, another tab): start at the first step.
  if (!draft) return <Navigate to={shareFilesUrl(folderId)} replace />;
  return <TypeOfCopy folderId={folderId} initial={draft.copyType} />;
}

function TypeOfCopy({ folderId, initial }: { folderId: string; initial: CopyType | null }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const me = useMeQuery();
  const pricing = usePricingQuery();
  const [copyType, setCopyType] = useState<CopyType | null>(initial);
  const name = me.data ? ownerName(me.data) : me.isError ? 'Your name' : '…';

  const next = () => {
    if (!copyType) return;
    dispatch(copyTypeChosen(copyType));
    void navigate(recipientsUrl(folderId));
  };

  return (
    <main className="page sharing">
      <BackControl to={shareFilesUrl(folderId)} label="Share Files" />
      <h1>Type of Copy</h1>
      <fieldset className="sharing-choices">
        <legend>Which copy do the recipients get?</legend>
        {(['authenticated', 'unauthenticated'] as const).map((type) => (
          <label key={type} className={`sharing-choice${copyType === type ? ' sharing-choice--chosen' : ''}`}>
            <input type="radio" name="copy-type" value={type} checked={copyType === type} onChange={() => setCopyType(type)} />
            <span className="sharing-choice__body">
              <span className="sharing-choice__title">{COPY_TYPE_LABELS[type]}</span>
              {type === 'authenticated' && (
                <span data-testid="generated-for">
                  {WATERMARK_LABELS.generatedFor} {name}
                </span>
              )}
              <span className="muted">{DESCRIPTIONS[type]}</span>
            </span>
            {pricing.data && (
              <span className="sharing-choice__price" data-testid={`price-${type}`}>
                {formatMoney(pricing.data.sharing[type])}
                <span className="muted"> per recipient</span>
              </span>
            )}
          </label>
        ))}
      </fieldset>
      {pricing.isError && <p className="muted">The prices could not be loaded. The total is shown before you pay.</p>}
      <h2 className="sharing-subtitle">Each copy carries this banner</h2>
      <WatermarkBanner
        preview
        watermark={{ copyType: copyType ?? 'authenticated', generatedFor: name, ...PREVIEW }}
      />
      <PrimaryButton disabled={!copyType} onClick={next}>
        Continue
      </PrimaryButton>
    </main>
  );
}
