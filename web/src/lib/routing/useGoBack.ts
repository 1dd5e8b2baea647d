//! Going back when there is somewhere to go back to.
import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/** Back in history when this app put an entry before the current one, else to `fallback`. */
export function useGoBack(fallback: string): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate(fallback, { replace: true });
  }, [navigate, fallback]);
}
