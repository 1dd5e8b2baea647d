//! The network-status banner (spec §4, §8): offline shows a red warning with a 'More help' sheet;
//! online with files waiting on the device it warns 'You have an unfinished process.' with
//! Continue (the first stored situation, syncOffline=1), or 'Log in' when logged out; coming back
//! online reloads the page, unless a page holds unsent work in memory (lib/network/reloadHold).
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAppSelector } from '../lib/store/hooks';
import { useOnline } from '../lib/network/useOnline';
import { reloadHeld } from '../lib/network/reloadHold';
import { parseStepSituation } from '../lib/offline/situations';
import { useOfflineWaiting } from '../lib/offline/useOfflineCount';
import { selectSignedIn } from '../lib/session/loginInfoSlice';
import { NETWORK_LOST } from '../lib/api/errors';
import { BottomSheet } from './BottomSheet';

export { NETWORK_LOST };
export const UNFINISHED_PROCESS = 'You have an unfinished process.';
/** The anonymous contributor's screens, whose files are not kept on the device. */
const CONTRIBUTOR_SCREENS = '/organization-sharing/';
export const CONTRIBUTOR_HELP =
  'The files you send from this page are kept only while it is open. Keep it open, and press Retry on a file once the network returns.';

/** '1 file is waiting to be uploaded.' / '3 files are waiting to be uploaded.' */
export function waitingFilesText(count: number): string {
  return count === 1 ? '1 file is waiting to be uploaded.' : `${count} files are waiting to be uploaded.`;
}

/** Where the situation's waiting files are sent from: a step's capture screen for an organization step, else /evidence. */
export function continuePath(situation: string): string {
  const step = parseStepSituation(situation);
  if (step) return `/organization-evidence/${encodeURIComponent(step.folderId)}/${encodeURIComponent(step.stepId)}`;
  return `/evidence?situation=${encodeURIComponent(situation)}&syncOffline=1`;
}

export function NetworkBanner() {
  const online = useOnline();
  const [help, setHelp] = useState(false);
  // Once the network was lost, its return reloads the page. Until the reload the banner shows
  // nothing, so nobody acts on a page that is about to go away.
  const [wentOffline, setWentOffline] = useState(!online);
  if (!online && !wentOffline) setWentOffline(true);
  // A page holding unsent work stays: the network is back, and nothing reloads.
  if (online && wentOffline && reloadHeld()) setWentOffline(false);
  const reloadPending = online && wentOffline;
  const waiting = useOfflineWaiting();
  const signedIn = useAppSelector(selectSignedIn);
  const navigate = useNavigate();
  const { pathname } = useLocation();

  useEffect(() => {
    if (reloadPending) window.location.reload();
  }, [reloadPending]);

  const helpSheet = (
    <BottomSheet open={help} title="More help" onClose={() => setHelp(false)}>
      {pathname.startsWith(CONTRIBUTOR_SCREENS) ? (
        <p>{CONTRIBUTOR_HELP}</p>
      ) : (
        <p>
          Your photos, videos and audio are stored locally on this device while the connection is poor or lost. They can be
          uploaded once the network returns.
        </p>
      )}
    </BottomSheet>
  );

  if (!online) {
    return (
      <>
        <div className="network-banner" role="alert">
          <span>
            {NETWORK_LOST}
            {waiting.count > 0 && ` ${waitingFilesText(waiting.count)}`}
          </span>
          <button type="button" className="network-banner__help" onClick={() => setHelp(true)}>
            More help
          </button>
        </div>
        {helpSheet}
      </>
    );
  }

  // The capture screens show and send their own waiting files.
  const capturing = pathname === '/evidence' || pathname.startsWith('/organization-evidence/');
  if (reloadPending || waiting.count === 0 || !waiting.firstSituation || capturing) return null;
  const situation = waiting.firstSituation;
  return (
    <>
      <div className="network-banner network-banner--warning" role="status">
        <span>
          {UNFINISHED_PROCESS} {waitingFilesText(waiting.count)}
        </span>
        <span className="network-banner__actions">
          {signedIn ? (
            <button type="button" className="network-banner__help" onClick={() => navigate(continuePath(situation))}>
              Continue
            </button>
          ) : (
            <button type="button" className="network-banner__help" onClick={() => navigate('/log-in', { state: { from: continuePath(situation) } })}>
              Log in
            </button>
          )}
          <button type="button" className="network-banner__help" onClick={() => setHelp(true)}>
            More help
          </button>
        </span>
      </div>
      {helpSheet}
    </>
  );
}
