//! Entry: renders the app and removes the loading overlay once the window has loaded.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './styles.css';

function hideLoadingOverlay() {
  document.getElementById('app-loading')?.remove();
}

if (document.readyState === 'complete') hideLoadingOverlay();
else window.addEventListener('load', hideLoadingOverlay, { once: true });

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
