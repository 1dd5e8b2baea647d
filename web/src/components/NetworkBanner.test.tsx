import { holdReload } from '../lib/network/reloadHold';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTestStore, renderAt } from '../testing';
import { continuePath, CONTRIBUTOR_HELP, NETWORK_LOST, NetworkBanner, UNFINISHED_PROCESS, waitingFilesText } from './NetworkBanner';

const waiting = vi.hoisted(() => ({ value: { count: 0 } as { count: number; firstSituation?: string } }));
vi.mock('../lib/offline/useOfflineCount', () => ({ useOfflineWaiting: () => waiting.value }));

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
}

function renderBanner(path: string, signedIn: boolean) {
  return renderAt(makeTestStore({ signedIn }), [{ path: '*', element: <NetworkBanner /> }], path).router;
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
    renderBanner('/dashboard/home', true);
    expect(screen.getByRole('alert')).toHaveTextContent(NETWORK_LOST);
    fireEvent.click(screen.getByRole('button', { name: 'More help' }));
    expect(screen.getByRole('dialog', { name: 'More help' })).toHaveTextContent('stored locally');
  });

  it('online with waiting files, Continue opens the first situation with syncOffline=1', () => {
    setOnline(true);
    waiting.value = { count: 2, firstSituation: 'sit-1' };
    const router = renderBanner('/dashboard/home', true);
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
    const router = renderBanner('/', false);
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
    renderBanner('/dashboard/home', true);
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

  it('does not reload a page that holds unsent work in memory', () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    const release = holdReload();
    setOnline(false);
    waiting.value = { count: 0 };
    renderBanner('/organization-sharing/evidence/f1/s1', false);
    setOnline(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(reload).not.toHaveBeenCalled();
    release();
    vi.unstubAllGlobals();
  });

  it("on a contributor's screen, More help does not promise the device keeps the files", () => {
    setOnline(false);
    waiting.value = { count: 0 };
    renderBanner('/organization-sharing/evidence/f1/s1', false);
    fireEvent.click(screen.getByRole('button', { name: 'More help' }));
    expect(screen.getByText(CONTRIBUTOR_HELP)).toBeInTheDocument();
    expect(screen.queryByText(/stored locally on this device/)).toBeNull();
    setOnline(true);
  });

  it('says nothing online with nothing waiting, or on the capture screen itself', () => {
    waiting.value = { count: 0 };
    renderBanner('/dashboard/home', true);
    expect(screen.queryByRole('status')).toBeNull();
    waiting.value = { count: 1, firstSituation: 'sit-1' };
    renderBanner('/evidence?situation=sit-1', true);
    expect(screen.queryByRole('status')).toBeNull();
  });
});
