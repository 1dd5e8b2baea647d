// A slow request says so after SLOW_AFTER_MS; a quick one never does.
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Loading, SLOW_AFTER_MS, SLOW_MESSAGE } from './LoadState';

afterEach(() => vi.useRealTimers());

describe('loading', () => {
  it('says what is loading, and that it is slow once it is', () => {
    vi.useFakeTimers();
    render(<Loading what="Loading your invitations..." />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading your invitations...');
    act(() => vi.advanceTimersByTime(SLOW_AFTER_MS - 1));
    expect(screen.queryByText(SLOW_MESSAGE)).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText(SLOW_MESSAGE)).toBeInTheDocument();
  });
});
