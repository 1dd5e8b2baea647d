//! The network-status banner (spec §4, §8): offline shows a red warning with a 'More help' sheet;
//! coming back online reloads the page.
import { useEffect, useRef, useState } from 'react';
import { useOnline } from '../lib/network/useOnline';
import { BottomSheet } from './BottomSheet';

export const NETWORK_LOST = 'The network connection is poor or was lost.';

export function NetworkBanner() {
  const online = useOnline();
  const [help, setHelp] = useState(false);
  const wasOffline = useRef(!online);

  useEffect(() => {
    if (!online) wasOffline.current = true;
    else if (wasOffline.current) window.location.reload();
  }, [online]);

  if (online) return null;
  return (
    <>
      <div className="network-banner" role="alert">
        <span>{NETWORK_LOST}</span>
        <button type="button" className="network-banner__help" onClick={() => setHelp(true)}>
          More help
        </button>
      </div>
      <BottomSheet open={help} title="More help" onClose={() => setHelp(false)}>
        <p>
          Your photos, videos and audio are stored locally on this device while the connection is poor or lost. They can
          be uploaded once the network returns.
        </p>
      </BottomSheet>
    </>
  );
}
