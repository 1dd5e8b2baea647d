//! The bottom snackbar (spec §2, §4): error, success, info or warning; hides after 5 s; info
//! messages have a close button; sits above each screen's bottom bar (spec §9 offsets).
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useAppDispatch, useAppSelector } from '../lib/store/hooks';
import { hideSnackbar } from '../lib/ui/uiSlice';
import { snackbarBottomOffset } from '../lib/ui/snackbarOffset';

export const SNACKBAR_AUTO_HIDE_MS = 5000;

export function Snackbar() {
  const snackbar = useAppSelector((state) => state.snackbar);
  const dispatch = useAppDispatch();
  const location = useLocation();

  useEffect(() => {
    if (!snackbar.isShown) return undefined;
    const timer = setTimeout(() => dispatch(hideSnackbar()), SNACKBAR_AUTO_HIDE_MS);
    return () => clearTimeout(timer);
  }, [snackbar.isShown, snackbar.key, dispatch]);

  if (!snackbar.isShown) return null;
  return (
    <div
      className={`snackbar snackbar--${snackbar.type}`}
      role={snackbar.type === 'error' ? 'alert' : 'status'}
      style={{ bottom: snackbarBottomOffset(location.pathname, location.search) }}
    >
      <span>{snackbar.message}</span>
      {snackbar.type === 'info' && (
        <button type="button" className="snackbar__close" aria-label="Close" onClick={() => dispatch(hideSnackbar())}>
          ×
        </button>
      )}
    </div>
  );
}
