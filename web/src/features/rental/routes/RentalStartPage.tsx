//! `/vehicle-rental` and `/hotel-rental`: TypeOfRental (Pick-up or Return; a Return names its
//! Pick-up), then for a vehicle SelectVehicle (spec §4 "Vehicle rental steps"); then the rental
//! folder is created and its capture screen opens. `?pickup=<folderId>` starts a Return of it.
import { useReducer, useRef } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { useFoldersQuery } from '../../../lib/api/evidence';
import { firstErrorMessage } from '../../../lib/api/errors';
import { formatDateTime } from '../../../lib/format/format';
import { HOME } from '../../../lib/routing/accessTable';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useCreateRentalFolderMutation } from '../api/rentalApi';
import {
  captureScreenUrl,
  momentLabel,
  pickupFolders,
  rentalFolderName,
  VEHICLE_TYPES,
  type Moment,
  type NewRentalFolder,
  type RentalKind,
} from '../model/rental';
import { initialSteps, readyToCreate, stepsReducer, typeOfRentalDone } from '../model/steps';
import { BackControl } from '../../../components/BackControl';

const MOMENT_HINTS: Record<RentalKind, Record<Moment, string>> = {
  vehicle: {
    pickup: 'Before you drive away: record the vehicle as you receive it.',
    return: 'When you bring it back: record it again, beside its Pick-up.',
  },
  hotel: {
    pickup: 'When you arrive: record the room as you find it.',
    return: 'When you leave: record the room again, beside its check-in.',
  },
};

export function RentalStartPage({ kind }: { kind: RentalKind }) {
  const [params] = useSearchParams();
  const presetPickup = params.get('pickup');
  const [state, send] = useReducer(
    stepsReducer,
    presetPickup ? initialSteps({ moment: 'return', pickupFolderId: presetPickup }) : initialSteps(),
  );
  const navigate = useNavigate();
  const location = useLocation();
  const dispatch = useAppDispatch();
  const folders = useFoldersQuery();
  const [createFolder, creating] = useCreateRentalFolderMutation();
  // One client id per set of choices: a retried create is the same folder (the service is
  // idempotent on it), different choices are a different folder.
  const clientIds = useRef(new Map<string, string>());

  const pickups = pickupFolders(folders.data ?? [], kind);
  const linkedPickup = pickups.find((p) => p.folder.id === state.pickupFolderId);
  const stepCount = kind === 'vehicle' ? 2 : 1;
  const stepNumber = state.step === 'type-of-rental' ? 1 : 2;
  const title = kind === 'vehicle' ? 'Vehicle Rental' : 'Hotel Rental';

  const back = () => {
    if (state.step === 'select-vehicle') send({ type: 'back' });
    else if (location.key === 'default') navigate(HOME);
    else navigate(-1);
  };

  const create = async () => {
    if (!readyToCreate(kind, state) || !state.moment) return;
    const rental: NewRentalFolder['rental'] = { kind, moment: state.moment };
    if (kind === 'vehicle' && state.vehicleType) rental.vehicle_type = state.vehicleType;
    if (state.moment === 'return' && state.pickupFolderId) rental.pickup_folder_id = state.pickupFolderId;
    const signature = JSON.stringify(rental);
    let clientId = clientIds.current.get(signature);
    if (!clientId) {
      clientId = crypto.randomUUID();
      clientIds.current.set(signature, clientId);
    }
    const name = rentalFolderName(kind, state.moment, state.vehicleType, new Date());
    const result = await createFolder({ name, client_id: clientId, rental });
    if ('error' in result) {
      dispatch(showSnackbar({ message: firstErrorMessage(result.error, 'The capture could not be started. Please try again.'), type: 'error' }));
      return;
    }
    navigate(captureScreenUrl(kind, result.data.id), { replace: true });
  };

  const continueFromType = () => {
    if (kind === 'hotel') {
      void create();
      return;
    }
    // A Return is of the Pick-up's vehicle: preselect its type.
    if (state.moment === 'return' && state.pickupFolderId && linkedPickup?.rental.vehicleType && !state.vehicleType) {
      send({ type: 'pickup', folderId: state.pickupFolderId, vehicleType: linkedPickup.rental.vehicleType });
    }
    send({ type: 'continue', kind });
  };

  return (
    <main className="page rental">
      <div className="rental__bar">
        <BackControl onClick={back} />
        {stepCount > 1 && <span className="muted">Step {stepNumber} of {stepCount}</span>}
      </div>

      {state.step === 'type-of-rental' && (
        <>
          <h1>{title}</h1>
          <fieldset className="rental__choices">
            <legend>Type of rental</legend>
            {(['pickup', 'return'] as const).map((moment) => (
              <label key={moment} className={`rental__choice${state.moment === moment ? ' rental__choice--selected' : ''}`}>
                <input
                  type="radio"
                  name="moment"
                  value={moment}
                  checked={state.moment === moment}
                  onChange={() => send({ type: 'moment', moment })}
                  aria-labelledby={`moment-${moment}-title`}
                  aria-describedby={`moment-${moment}-hint`}
                />
                <span id={`moment-${moment}-title`} className="rental__choice-title">
                  {momentLabel(kind, moment)}
                </span>
                <span id={`moment-${moment}-hint`} className="rental__choice-hint muted">
                  {MOMENT_HINTS[kind][moment]}
                </span>
              </label>
            ))}
          </fieldset>

          {state.moment === 'return' && (
            <fieldset className="rental__choices">
              <legend>Which {momentLabel(kind, 'pickup')} is this {momentLabel(kind, 'return')} for?</legend>
              {folders.isLoading && <p className="muted">Loading…</p>}
              {folders.isError && (
                <p role="alert" className="field__error">
                  {firstErrorMessage(folders.error, 'Your captures could not be loaded.')}
                </p>
              )}
              {folders.isSuccess && pickups.length === 0 && (
                <p className="muted">
                  You have no {kind === 'vehicle' ? 'vehicle Pick-up' : 'hotel check-in'} captures yet. Capture the{' '}
                  {momentLabel(kind, 'pickup')} first.
                </p>
              )}
              {pickups.map(({ folder, rental }) => (
                <label key={folder.id} className={`rental__choice${state.pickupFolderId === folder.id ? ' rental__choice--selected' : ''}`}>
                  <input
                    type="radio"
                    name="pickup"
                    value={folder.id}
                    checked={state.pickupFolderId === folder.id}
                    onChange={() => send({ type: 'pickup', folderId: folder.id, vehicleType: rental.vehicleType })}
                    aria-labelledby={`pickup-${folder.id}-title`}
                  />
                  <span id={`pickup-${folder.id}-title`} className="rental__choice-title">
                    {folder.name}
                  </span>
                  {folder.createdAt && <span className="rental__choice-hint muted">Started {formatDateTime(folder.createdAt)}</span>}
                </label>
              ))}
            </fieldset>
          )}

          <PrimaryButton disabled={!typeOfRentalDone(state)} loading={creating.isLoading} onClick={continueFromType}>
            {kind === 'hotel' ? 'Start Capture' : 'Continue'}
          </PrimaryButton>
        </>
      )}

      {state.step === 'select-vehicle' && (
        <>
          <h1>Select Vehicle</h1>
          <fieldset className="rental__choices rental__choices--grid">
            <legend>Vehicle type</legend>
            {VEHICLE_TYPES.map((vehicle) => (
              <label key={vehicle.id} className={`rental__choice${state.vehicleType === vehicle.id ? ' rental__choice--selected' : ''}`}>
                <input
                  type="radio"
                  name="vehicle"
                  value={vehicle.id}
                  checked={state.vehicleType === vehicle.id}
                  onChange={() => send({ type: 'vehicle', vehicleType: vehicle.id })}
                />
                <span className="rental__choice-title">{vehicle.label}</span>
              </label>
            ))}
          </fieldset>
          <PrimaryButton disabled={!readyToCreate(kind, state)} loading={creating.isLoading} onClick={() => void create()}>
            Start Capture
          </PrimaryButton>
        </>
      )}
    </main>
  );
}
