//! The PWA's prompt to update when a new version of the app is ready.
import { useRegisterSW } from 'virtual:pwa-register/react';

export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW();
  if (!needRefresh) return null;
  return (
    <div className="update-prompt" role="status">
      <span>A new version of Evidentia is available.</span>
      <button type="button" className="btn btn--primary" onClick={() => void updateServiceWorker(true)}>
        Update
      </button>
      <button type="button" className="btn btn--secondary" onClick={() => setNeedRefresh(false)}>
        Later
      </button>
    </div>
  );
}
