//! The location-permission help sheet of spec §2: iOS steps for turning location services on, and
//! allowing Evidentia to access the device location.
import { BottomSheet } from '../BottomSheet';

export const LOCATION_HELP_TITLE = 'Turn on Location Services';

export function LocationHelpSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <BottomSheet open={open} title={LOCATION_HELP_TITLE} onClose={onClose}>
      <p>Evidence is stronger with the place it was captured. Allow Evidentia to access the device location:</p>
      <ol className="capture-help__steps">
        <li>Open Settings on your iPhone.</li>
        <li>Tap Privacy &amp; Security, then Location Services, and turn Location Services on.</li>
        <li>Scroll down to your browser (Safari Websites, or Evidentia if you installed the app) and choose &quot;While Using the App&quot;.</li>
        <li>Turn on Precise Location.</li>
        <li>Come back here and reload the page.</li>
      </ol>
      <p className="muted">On Android, open the site settings from the address bar and allow Location.</p>
    </BottomSheet>
  );
}
