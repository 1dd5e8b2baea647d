// Escape closes the shared dialog and bottom sheet (WCAG 2.1.2), only the topmost one at a time.
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { BottomSheet } from './BottomSheet';
import { ConfirmDialog, escapeButton } from './ConfirmDialog';

const escape = () => fireEvent.keyDown(document, { key: 'Escape' });

describe('Escape', () => {
  it('presses the confirm dialog’s Cancel, not its highlighted action', () => {
    const leave = vi.fn();
    const cancel = vi.fn();
    render(<ConfirmDialog isOpen title="Leave this page?" buttons={[{ text: 'Leave', isHighlighted: true, onClick: leave }, { text: 'Cancel', onClick: cancel }]} />);
    escape();
    expect(cancel).toHaveBeenCalledOnce();
    expect(leave).not.toHaveBeenCalled();
  });

  it('runs the confirm dialog’s onClose when given', () => {
    const onClose = vi.fn();
    render(<ConfirmDialog isOpen title="Remove?" onClose={onClose} buttons={[{ text: 'Remove', isHighlighted: true, onClick: vi.fn() }]} />);
    escape();
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('does nothing for a closed dialog or one with only a highlighted action', () => {
    const only = vi.fn();
    render(<ConfirmDialog isOpen={false} title="Closed" buttons={[{ text: 'Cancel', onClick: only }]} />);
    escape();
    expect(only).not.toHaveBeenCalled();
    expect(escapeButton([{ text: 'Proceed', isHighlighted: true, onClick: only }])).toBeUndefined();
  });

  it('closes the bottom sheet', () => {
    const onClose = vi.fn();
    render(
      <BottomSheet open title="Actions" onClose={onClose}>
        <p>Rename</p>
      </BottomSheet>,
    );
    escape();
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('closes only the topmost: a dialog opened over a sheet closes first', () => {
    const closeSheet = vi.fn();
    const cancel = vi.fn();
    const { rerender } = render(
      <BottomSheet open title="Actions" onClose={closeSheet}>
        <ConfirmDialog isOpen={false} title="Delete?" buttons={[{ text: 'Cancel', onClick: cancel }]} />
      </BottomSheet>,
    );
    rerender(
      <BottomSheet open title="Actions" onClose={closeSheet}>
        <ConfirmDialog isOpen title="Delete?" buttons={[{ text: 'Cancel', onClick: cancel }]} />
      </BottomSheet>,
    );
    escape();
    expect(cancel).toHaveBeenCalledOnce();
    expect(closeSheet).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Delete?' })).toBeInTheDocument();
  });
});
