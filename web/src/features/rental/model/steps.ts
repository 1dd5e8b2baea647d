//! The steps before a rental capture (spec §4 "Vehicle rental steps": TypeOfRental, then
//! SelectVehicle), as a reducer: Back walks the steps in reverse.
import type { Moment, RentalKind, VehicleType } from './rental';

export type Step = 'type-of-rental' | 'select-vehicle';

export interface StepsState {
  step: Step;
  moment: Moment | null;
  /** The Pick-up a Return is linked to. */
  pickupFolderId: string | null;
  vehicleType: VehicleType | null;
}

export type StepsAction =
  | { type: 'moment'; moment: Moment }
  | { type: 'pickup'; folderId: string; vehicleType?: VehicleType | null }
  | { type: 'vehicle'; vehicleType: VehicleType }
  | { type: 'continue'; kind: RentalKind }
  | { type: 'back' };

export const initialSteps = (preset?: Partial<Pick<StepsState, 'moment' | 'pickupFolderId' | 'vehicleType'>>): StepsState => ({
  step: 'type-of-rental',
  moment: preset?.moment ?? null,
  pickupFolderId: preset?.pickupFolderId ?? null,
  vehicleType: preset?.vehicleType ?? null,
});

/** TypeOfRental is answered: a moment, and for a Return the Pick-up it belongs to. */
export function typeOfRentalDone(state: StepsState): boolean {
  return state.moment === 'pickup' || (state.moment === 'return' && state.pickupFolderId !== null);
}

/** Everything the folder needs is chosen: a hotel needs TypeOfRental only, a vehicle its type too. */
export function readyToCreate(kind: RentalKind, state: StepsState): boolean {
  if (!typeOfRentalDone(state)) return false;
  return kind === 'hotel' || (state.step === 'select-vehicle' && state.vehicleType !== null);
}

export function stepsReducer(state: StepsState, action: StepsAction): StepsState {
  switch (action.type) {
    case 'moment':
      // A Pick-up links to nothing; a Return starts without a chosen Pick-up.
      return { ...state, moment: action.moment, pickupFolderId: null };
    case 'pickup':
      // The Return is of the same vehicle, so its type is the Pick-up's (still changeable).
      return { ...state, pickupFolderId: action.folderId, vehicleType: action.vehicleType ?? state.vehicleType };
    case 'vehicle':
      return { ...state, vehicleType: action.vehicleType };
    case 'continue':
      if (state.step === 'type-of-rental' && action.kind === 'vehicle' && typeOfRentalDone(state)) {
        return { ...state, step: 'select-vehicle' };
      }
      return state;
    case 'back':
      return state.step === 'select-vehicle' ? { ...state, step: 'type-of-rental' } : state;
  }
}
