// spec §4 "Vehicle rental steps": TypeOfRental, then SelectVehicle; Back walks them in reverse.
import { describe, expect, it } from 'vitest';
import { initialSteps, readyToCreate, stepsReducer, typeOfRentalDone, type StepsAction, type StepsState } from './steps';

const run = (actions: StepsAction[], from: StepsState = initialSteps()) => actions.reduce(stepsReducer, from);

describe('rental steps', () => {
  it('starts at TypeOfRental with nothing chosen, and cannot continue yet', () => {
    const state = run([{ type: 'continue', kind: 'vehicle' }]);
    expect(state.step).toBe('type-of-rental');
    expect(typeOfRentalDone(state)).toBe(false);
  });

  it('a vehicle Pick-up goes TypeOfRental, then SelectVehicle, then is ready', () => {
    const chosen = run([{ type: 'moment', moment: 'pickup' }, { type: 'continue', kind: 'vehicle' }]);
    expect(chosen.step).toBe('select-vehicle');
    expect(readyToCreate('vehicle', chosen)).toBe(false);
    const withVehicle = stepsReducer(chosen, { type: 'vehicle', vehicleType: 'suv' });
    expect(readyToCreate('vehicle', withVehicle)).toBe(true);
  });

  it('a Return needs its Pick-up before it can continue, and takes the Pick-up\u2019s vehicle type', () => {
    const returning = run([{ type: 'moment', moment: 'return' }, { type: 'continue', kind: 'vehicle' }]);
    expect(returning.step).toBe('type-of-rental');
    const linked = run([{ type: 'pickup', folderId: 'p1', vehicleType: 'truck' }, { type: 'continue', kind: 'vehicle' }], returning);
    expect(linked).toMatchObject({ step: 'select-vehicle', pickupFolderId: 'p1', vehicleType: 'truck' });
    expect(readyToCreate('vehicle', linked)).toBe(true);
  });

  it('choosing Pick-up again forgets the linked Pick-up', () => {
    const state = run([{ type: 'moment', moment: 'return' }, { type: 'pickup', folderId: 'p1' }, { type: 'moment', moment: 'pickup' }]);
    expect(state.pickupFolderId).toBeNull();
  });

  it('Back from SelectVehicle returns to TypeOfRental with the choices kept', () => {
    const state = run([
      { type: 'moment', moment: 'pickup' },
      { type: 'continue', kind: 'vehicle' },
      { type: 'vehicle', vehicleType: 'car' },
      { type: 'back' },
    ]);
    expect(state).toMatchObject({ step: 'type-of-rental', moment: 'pickup', vehicleType: 'car' });
  });

  it('a hotel has TypeOfRental only: ready as soon as it is answered', () => {
    const state = run([{ type: 'moment', moment: 'pickup' }]);
    expect(readyToCreate('hotel', state)).toBe(true);
    expect(stepsReducer(state, { type: 'continue', kind: 'hotel' }).step).toBe('type-of-rental');
  });
});
