import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { answer, type ApiCall, renderAt, serve } from '../../../testing';
import { makeSharingStore } from '../testing/helpers';
import { RecipientPacket } from './RecipientPacket';

function renderPacket(reply: unknown) {
  const follow = vi.fn();
  const calls = serve({ 'POST sharing/view/packet/': reply });
  const store = makeSharingStore();
  renderAt(store, [{ path: '/shared', element: <RecipientPacket token="folder-token" follow={follow} /> }], '/shared');
  return { follow, calls, store };
}

describe("a recipient's evidence packet", () => {
  it('asks for a link with the folder token and follows it', async () => {
    const { follow, calls } = renderPacket({ url: '/api/sharing/packets/copies/', expires_at: '2026-11-27T12:10:00Z' });
    expect(screen.getByText(/signed receipts of their originals/)).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Download evidence packet' })));
    await waitFor(() => expect(follow).toHaveBeenCalledWith('/api/sharing/packets/copies/'));
    const asked = calls.find((c: ApiCall) => c.path === 'sharing/view/packet/');
    expect(asked?.headers.get('X-Folder-Token')).toBe('folder-token');
  });

  it('a refusal says why and follows nothing', async () => {
    const { follow, store } = renderPacket(
      answer(400, { errors: [{ field: 'copies', message: 'No copy is ready yet: the packet can be made once one is.' }] }),
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Download evidence packet' })));
    await waitFor(() =>
      expect(store.getState().snackbar).toMatchObject({ type: 'error', message: 'No copy is ready yet: the packet can be made once one is.' }),
    );
    expect(follow).not.toHaveBeenCalled();
  });
});
