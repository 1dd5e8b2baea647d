import { configureStore } from '@reduxjs/toolkit';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loginInfoSlice } from '../lib/session/loginInfoSlice';
import { continuePath, NETWORK_LOST, NetworkBanner, UNFINISHED_PROCESS, waitingFilesText } from './NetworkBanner';

const waiting = vi.hoisted(() => ({ value: { count: 0 } as { count: number; firstSituation?: string } }));
vi.mock('../lib/offline/useOfflineCount', () => ({ useOfflineWaiting: () => waiting.value }));

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
}

function renderAt(path: string, signedIn: boolean) {
  const store = configureStore({
    reducer: { loginInfo: loginInfoSlice.reducer },
    preloadedState: { loginInfo: { accessToken: signedIn ? 'a' : null, refreshToken: signedIn ? 'r' : null, accessFolderToken: null } },
  });
  const router = createMemoryRouter(
    [
      { path: '*', element: <NetworkBanner /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return router;
}

describe('network banner (spec §4)', () => {
  afterEach(() => setOnline(true));

  it('pluralises the waiting files', () => {
    expect(waitingFilesText(1)).toBe('1 file is waiting to be uploaded.');
    expect(waitingFilesText(3)).toBe('3 files are waiting to be uploaded.');
  });

  it('warns offline, with More help', () => {
    setOnline(false);
    waiting.value = { count: 0 };
    renderAt('/dashboard/home', true);
    expect(screen.getByRole('alert')).toHaveTextContent(NETWORK_LOST);
    fireEvent.click(screen.getByRole('button', { name: 'More help' }));
    expect(screen.getByRole('dialog', { name: 'More help' })).toHaveTextContent('stored locally');
  });

  it('online with waiting files, Continue opens the first situation with syncOffline=1', () => {
    setOnline(true);
    waiting.value = { count: 2, firstSituation: 'sit-1' };
    const router = renderAt('/dashboard/home', true);
    expect(screen.getByRole('status')).toHaveTextContent(`${UNFINISHED_PROCESS} 2 files are waiting to be uploaded.`);
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(continuePath('sit-1'));
    expect(continuePath('sit-1')).toBe('/evidence?situation=sit-1&syncOffline=1');
    // Files waiting for a step of an organization folder go back to that step's capture.
    expect(continuePath('organization:f-1:s-2')).toBe('/organization-evidence/f-1/s-2');
    expect(continuePath('organization:f-1')).toBe('/evidence?situation=organization%3Af-1&syncOffline=1');
  });

  it('logged out, the action is Log in, returning to the situation after', () => {
    waiting.value = { count: 1, firstSituation: 'sit-1' };
    const router = renderAt('/', false);
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(router.state.location.pathname).toBe('/log-in');
    expect(router.state.location.state).toEqual({ from: continuePath('sit-1') });
  });

  it('coming back online reloads the page, offering nothing until it does', () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    setOnline(false);
    waiting.value = { count: 2, firstSituation: 'sit-1' };
    renderAt('/dashboard/home', true);
    expect(screen.getByRole('alert')).toHaveTextContent('2 files are waiting to be uploaded.');
    setOnline(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(reload).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
    vi.unstubAllGlobals();
  });

  it('says nothing online with nothing waiting, or on the capture screen itself', () => {
    waiting.value = { count: 0 };
    renderAt('/dashboard/home', true);
    expect(screen.queryByRole('status')).toBeNull();
    waiting.value = { count: 1, firstSituation: 'sit-1' };
    renderAt('/evidence?situation=sit-1', true);
    expect(screen.queryByRole('status')).toBeNull();
  });
});
