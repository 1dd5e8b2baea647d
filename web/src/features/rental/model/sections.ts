//! The sections a rental capture walks through, what each needs, and the video intro screens
//! (spec §1 sections body, interior, mileage, fuel; §2 "Video capture intro screen"; §9 the
//! interior video's recommended length). The reasons are in docs/decisions.md "Rental capture".
import type { CaptureMode, RentalKind, VehicleType } from './rental';

export type VehicleSection = 'body' | 'interior' | 'mileage' | 'fuel';
export type HotelSection = 'room' | 'bathroom' | 'bed' | 'furniture' | 'appliances' | 'damage';
export type SectionId = VehicleSection | HotelSection;

/** spec §9: recommended interior video length, in seconds. */
export const INTERIOR_VIDEO_RECOMMENDED_SECONDS = 90;

/** A point of the illustrated guide: where the viewfinder is (scene units, 0-100) and how close. */
export interface GuideFocus {
  x: number;
  y: number;
  zoom: number;
}

/** One step of a video intro: what to do, and where the illustrated preview frames it. */
export interface GuideStep {
  text: string;
  focus: GuideFocus;
}

/** A video intro screen (spec §2): its title, Guide list and illustrated scene. */
export interface VideoIntro {
  /** The key under which "Don't show me this page again" is remembered (ui.hiddenIntros). */
  id: string;
  title: string;
  scene: 'interior' | 'dashboard-odometer' | 'dashboard-fuel';
  steps: GuideStep[];
  /** Ask first, in a dialog, to keep the recording under this many seconds (interior only). */
  confirmMaxSeconds?: number;
}

export interface SectionDef {
  id: SectionId;
  title: string;
  /** How the section is captured. */
  mode: CaptureMode;
  /** Captures that complete the section; 0 makes it optional. */
  required: number;
  /** What to capture; the first `required` of a photo section are the must-haves. */
  shots: string[];
  intro?: VideoIntro;
  /** An optional second capture offered beside the main one (a hotel room's walk-through). */
  extra?: { mode: CaptureMode; label: string };
}

const INTERIOR_INTRO: VideoIntro = {
  id: 'vehicle-interior',
  title: 'Capture Interior Condition',
  scene: 'interior',
  confirmMaxSeconds: INTERIOR_VIDEO_RECOMMENDED_SECONDS,
  steps: [
    { text: 'Open the driver\u2019s door and start with the dashboard, steering wheel and front seats.', focus: { x: 50, y: 34, zoom: 1 } },
    { text: 'Move slowly to the back seats; film the seat covers and the floor mats.', focus: { x: 50, y: 60, zoom: 1 } },
    { text: 'Stop on any stain, tear, burn or missing part and hold it for two seconds.', focus: { x: 36, y: 60, zoom: 1.8 } },
    { text: 'Finish at the boot (trunk) or cargo area. Keep the whole video under 90 seconds.', focus: { x: 50, y: 86, zoom: 1 } },
  ],
};

const MILEAGE_INTRO: VideoIntro = {
  id: 'vehicle-mileage',
  title: 'Mileage',
  scene: 'dashboard-odometer',
  steps: [
    { text: 'Switch the ignition on so the instrument panel lights up.', focus: { x: 50, y: 50, zoom: 1 } },
    { text: 'Film the whole instrument panel for a moment, so it is clearly this vehicle.', focus: { x: 50, y: 50, zoom: 1 } },
    { text: 'Move in on the odometer (the engine-hours meter on a watercraft) and hold until every digit is sharp.', focus: { x: 32, y: 66, zoom: 2.2 } },
    { text: 'A few seconds are enough.', focus: { x: 32, y: 66, zoom: 2.2 } },
  ],
};

const FUEL_INTRO: VideoIntro = {
  id: 'vehicle-fuel',
  title: 'Fuel',
  scene: 'dashboard-fuel',
  steps: [
    { text: 'With the ignition on, film the instrument panel.', focus: { x: 50, y: 50, zoom: 1 } },
    { text: 'Move in on the fuel gauge (the battery level of an electric vehicle) and hold it steady.', focus: { x: 70, y: 42, zoom: 2.2 } },
    { text: 'If the panel shows the remaining range, include it.', focus: { x: 70, y: 70, zoom: 2 } },
    { text: 'A few seconds are enough.', focus: { x: 70, y: 42, zoom: 2.2 } },
  ],
};

const BODY: SectionDef = {
  id: 'body',
  title: 'Body',
  mode: 'photo',
  required: 4,
  shots: ['Front', 'Rear', 'Left side', 'Right side', 'Close-ups of every scratch, dent or chip', 'Wheels, glass and lights'],
};
const INTERIOR: SectionDef = {
  id: 'interior',
  title: 'Interior',
  mode: 'video',
  required: 1,
  shots: ['One video of seats, dashboard, floor and boot (under 90 seconds)'],
  intro: INTERIOR_INTRO,
};
const MILEAGE: SectionDef = {
  id: 'mileage',
  title: 'Mileage',
  mode: 'video',
  required: 1,
  shots: ['A short video of the odometer reading'],
  intro: MILEAGE_INTRO,
};
const FUEL: SectionDef = {
  id: 'fuel',
  title: 'Fuel',
  mode: 'video',
  required: 1,
  shots: ['A short video of the fuel gauge'],
  intro: FUEL_INTRO,
};

const HOTEL_SECTIONS: SectionDef[] = [
  {
    id: 'room',
    title: 'Room',
    mode: 'photo',
    required: 4,
    shots: ['The room from the door', 'Each wall and corner', 'Floor and carpet', 'Windows, curtains and balcony'],
    extra: { mode: 'video', label: 'Record Walk-through Video' },
  },
  { id: 'bathroom', title: 'Bathroom', mode: 'photo', required: 3, shots: ['Sink and mirror', 'Toilet', 'Shower or bath', 'Towels and fittings'] },
  { id: 'bed', title: 'Bed', mode: 'photo', required: 2, shots: ['The bed as you found it', 'Sheets and mattress up close', 'Headboard and bedside tables'] },
  { id: 'furniture', title: 'Furniture', mode: 'photo', required: 2, shots: ['Table and chairs', 'Wardrobe and drawers', 'Sofa or armchair'] },
  {
    id: 'appliances',
    title: 'Appliances',
    mode: 'photo',
    required: 2,
    shots: ['TV and remote', 'Minibar or fridge', 'Air conditioning or heating', 'Kettle, coffee machine, safe'],
  },
  {
    id: 'damage',
    title: 'Damage',
    mode: 'photo',
    required: 0,
    shots: ['Anything broken, stained or missing, up close', 'A wider photo showing where it is'],
  },
];

/**
 * The sections of a capture. A trailer has no odometer or tank of its own, so its capture is the
 * body and the interior (cargo or living space); every other vehicle has all four.
 */
export function sectionsFor(kind: RentalKind, vehicleType?: VehicleType | null): SectionDef[] {
  if (kind === 'hotel') return HOTEL_SECTIONS;
  return vehicleType === 'trailer' ? [BODY, INTERIOR] : [BODY, INTERIOR, MILEAGE, FUEL];
}
