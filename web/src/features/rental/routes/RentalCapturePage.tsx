//! `/vehicle-rental/capture?folderId=` and `/hotel-rental/capture?folderId=`: the sections of a
//! rental capture with their progress and captures. `&intro=<section>` shows a section's video
//! intro screen; `&view=compare` shows a Return beside its Pick-up. Capturing itself happens on
//! `/evidence`, which comes back here.
import { useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useAppSelector } from '../../../lib/store/hooks';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { useFolderQuery, useItemsQuery } from '../../../lib/api/evidence';
import { firstErrorMessage } from '../../../lib/api/errors';
import { HOME } from '../../../lib/routing/accessTable';
import { useReturnFoldersQuery } from '../api/rentalApi';
import { CompareView } from '../components/CompareView';
import { RecordingTimeDialog, VideoIntroScreen } from '../components/VideoIntroScreen';
import { SectionCard } from '../components/SectionCard';
import { captureProgress } from '../model/progress';
import {
  captureScreenUrl,
  evidenceCaptureUrl,
  momentLabel,
  RENTAL_PATHS,
  rentalOf,
  vehicleLabel,
  type CaptureMode,
  type RentalItem,
  type RentalKind,
} from '../model/rental';
import { sectionsFor, type SectionDef } from '../model/sections';
import { BackControl } from '../../../components/BackControl';

/** While a capture is on its way or its thumbnail is being made, look again this often. */
const POLL_MS = 3000;

const NO_ITEMS: RentalItem[] = [];

function waitingOnService(items: readonly RentalItem[]): boolean {
  return items.some(
    (item) =>
      item.status === 'awaiting_upload' ||
      item.status === 'uploaded' ||
      (item.status === 'verified' && !item.thumbnail && !item.expired && item.mediaType !== 'audio'),
  );
}

/** The items of a folder, polled while the service is still working on some of them. */
function useFolderItems(folderId: string | null | undefined) {
  const skip = !folderId;
  const query = useItemsQuery(folderId ?? '', { skip, refetchOnMountOrArgChange: true });
  const items: RentalItem[] = query.data ?? NO_ITEMS;
  // A second subscription to the same cache entry adds polling only while it is needed.
  useItemsQuery(folderId ?? '', { skip: skip || !waitingOnService(items), pollingInterval: POLL_MS });
  return { ...query, items };
}

export function RentalCapturePage({ kind }: { kind: RentalKind }) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const folderId = params.get('folderId') ?? '';
  const introSection = params.get('intro');
  const comparing = params.get('view') === 'compare';
  const hiddenIntros = useAppSelector((state) => state.ui.hiddenIntros);
  const [confirmingSection, setConfirmingSection] = useState<SectionDef | null>(null);

  const folderQuery = useFolderQuery(folderId, { skip: !folderId });
  const folder = folderQuery.data;
  const rental = folder ? rentalOf(folder) : null;
  const { items, ...itemsQuery } = useFolderItems(folder ? folderId : null);
  const pickupId = rental?.moment === 'return' ? rental.pickupFolderId : null;
  const pickupQuery = useFolderQuery(pickupId ?? '', { skip: !pickupId });
  const pickup = useFolderItems(pickupId && comparing ? pickupId : null);
  const returns = useReturnFoldersQuery(folderId, { skip: rental?.moment !== 'pickup' });

  if (!folderId) return <Navigate to={RENTAL_PATHS[kind].start} replace />;
  if (folderQuery.isLoading) {
    return (
      <main className="page rental">
        <p className="muted">Loading…</p>
      </main>
    );
  }
  if (folderQuery.isError || !folder || !rental) {
    return (
      <main className="page rental">
        <h1>{kind === 'vehicle' ? 'Vehicle Rental' : 'Hotel Rental'}</h1>
        <p role="alert" className="field__error">
          {folderQuery.isError ? firstErrorMessage(folderQuery.error, 'This capture could not be found.') : 'This folder is not a rental capture.'}
        </p>
        <Link to={HOME} className="btn btn--secondary">
          Back to Home
        </Link>
      </main>
    );
  }
  // A hotel folder opened on the vehicle route (or the reverse) is shown on its own route.
  if (rental.kind !== kind) return <Navigate to={captureScreenUrl(rental.kind, folderId)} replace />;

  const sections = sectionsFor(rental.kind, rental.vehicleType);
  const progress = captureProgress(sections, items);
  const here = captureScreenUrl(kind, folderId);
  const heading = `${kind === 'vehicle' ? vehicleLabel(rental.vehicleType) : 'Hotel'} ${momentLabel(kind, rental.moment)}`;
  const toEvidence = (section: SectionDef, mode: CaptureMode) => navigate(evidenceCaptureUrl(folderId, section.id, mode, here));
  // Sub-views are pushed with this marker, so leaving one goes back rather than adding history.
  const openSubView = (extra: Record<string, string>) => setParams({ folderId, ...extra }, { state: { subView: true } });
  const closeSubView = () => {
    if ((location.state as { subView?: boolean } | null)?.subView) navigate(-1);
    else setParams({ folderId }, { replace: true });
  };

  const capture = (section: SectionDef, mode: CaptureMode) => {
    const intro = mode === section.mode ? section.intro : undefined;
    if (intro && !hiddenIntros.includes(intro.id)) openSubView({ intro: section.id });
    else if (intro?.confirmMaxSeconds !== undefined) setConfirmingSection(section);
    else toEvidence(section, mode);
  };

  const introOf = sections.find((s) => s.id === introSection && s.intro);
  if (introOf?.intro) {
    return <VideoIntroScreen key={introOf.id} intro={introOf.intro} onBack={closeSubView} onTakeVideo={() => toEvidence(introOf, 'video')} />;
  }

  if (comparing && pickupId) {
    return (
      <main className="page rental">
        <div className="rental__bar">
          <BackControl onClick={closeSubView} />
        </div>
        <h1>Compare with {momentLabel(kind, 'pickup')}</h1>
        <p className="muted">
          {pickupQuery.data?.name ?? momentLabel(kind, 'pickup')} and {folder.name}
        </p>
        {(pickup.isLoading || itemsQuery.isLoading) && <p className="muted">Loading…</p>}
        {pickup.isError && (
          <p role="alert" className="field__error">
            {firstErrorMessage(pickup.error, `The ${momentLabel(kind, 'pickup')} could not be loaded.`)}
          </p>
        )}
        {pickup.isSuccess && <CompareView kind={kind} sections={sections} pickupItems={pickup.items} returnItems={items} />}
      </main>
    );
  }

  return (
    <main className="page rental">
      <div className="rental__bar">
        <Link to={HOME} className="link">
          Home
        </Link>
      </div>
      <h1>{heading}</h1>
      <p className="muted rental__folder">{folder.name}</p>
      <p className="rental__overall" role="status">
        {progress.done} of {progress.total} sections done
      </p>
      {rental.moment === 'return' && pickupId && (
        <div className="card rental__link">
          <p>
            {momentLabel(kind, 'return')} of <strong>{pickupQuery.data?.name ?? `your ${momentLabel(kind, 'pickup')}`}</strong>
          </p>
          <PrimaryButton variant="secondary" onClick={() => openSubView({ view: 'compare' })}>
            Compare with {momentLabel(kind, 'pickup')}
          </PrimaryButton>
        </div>
      )}
      {itemsQuery.isError && (
        <p role="alert" className="field__error">
          {firstErrorMessage(itemsQuery.error, 'Your captures could not be loaded.')}
        </p>
      )}
      {progress.sections.map((p) => (
        <SectionCard key={p.section.id} progress={p} onCapture={capture} />
      ))}
      {rental.moment === 'pickup' && (
        <div className="card rental__link">
          <h2 className="rental-section__title">{momentLabel(kind, 'return')}</h2>
          {(returns.data ?? []).length > 0 && (
            <ul className="rental__returns">
              {(returns.data ?? []).map((r) => (
                <li key={r.id}>
                  <Link to={captureScreenUrl(kind, r.id)}>{r.name}</Link>
                </li>
              ))}
            </ul>
          )}
          <p className="muted">
            At the end of the rental, capture the same sections again; the two are shown side by side.
          </p>
          <Link className="btn btn--secondary" to={`${RENTAL_PATHS[kind].start}?${new URLSearchParams({ pickup: folderId }).toString()}`}>
            Start {momentLabel(kind, 'return')}
          </Link>
        </div>
      )}
      {confirmingSection?.intro?.confirmMaxSeconds !== undefined && (
        <RecordingTimeDialog
          seconds={confirmingSection.intro.confirmMaxSeconds}
          onCancel={() => setConfirmingSection(null)}
          onContinue={() => toEvidence(confirmingSection, 'video')}
        />
      )}
    </main>
  );
}
