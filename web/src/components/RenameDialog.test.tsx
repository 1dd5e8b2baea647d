// spec §5 "File name": the rename dialog's messages, word for word, and the server's field error.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RenameDialog } from './RenameDialog';

const setup = (onSubmit = vi.fn(async () => undefined as unknown)) => {
  const onClose = vi.fn();
  render(<RenameDialog title="Rename file" initialName="Bumper" onSubmit={onSubmit} onClose={onClose} />);
  return { input: screen.getByLabelText('Name'), onSubmit, onClose };
};

describe('rename dialog', () => {
  it('shows the file-name messages as the user types', async () => {
    const { input } = setup();
    fireEvent.change(input, { target: { value: 'a' } });
    expect(await screen.findByText('Must be 2 characters or more')).toBeInTheDocument();
    fireEvent.change(input, { target: { value: 'Bumper <1>' } });
    expect(await screen.findByText('Special characters can not be used')).toBeInTheDocument();
    fireEvent.change(input, { target: { value: 'x'.repeat(51) } });
    expect(await screen.findByText('Must be 50 characters or less')).toBeInTheDocument();
  });

  it('lets the input take up to 250 characters so the length message can show', () => {
    const { input } = setup();
    expect(input).toHaveAttribute('maxLength', '250');
  });

  it('does not send an invalid name', async () => {
    const { input, onSubmit } = setup();
    fireEvent.change(input, { target: { value: 'a' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the trimmed name and closes when it is saved', async () => {
    const { input, onSubmit, onClose } = setup();
    fireEvent.change(input, { target: { value: '  Rear door  ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(onSubmit).toHaveBeenCalledWith('Rear door');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("sends the name once however often Enter is pressed while it saves, and Save reads 'Please wait'", async () => {
    let finish: (value: unknown) => void = () => {};
    const onSubmit = vi.fn(() => new Promise<unknown>((resolve) => (finish = resolve)));
    const { input, onClose } = setup(onSubmit);
    fireEvent.change(input, { target: { value: 'Rear door' } });
    await act(async () => fireEvent.submit(input.closest('form')!));
    await act(async () => fireEvent.submit(input.closest('form')!));
    await act(async () => fireEvent.submit(input.closest('form')!));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Please wait' })).toBeDisabled();
    await act(async () => finish(undefined));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("shows the server's field error when it refuses", async () => {
    const refused = { status: 400, data: { errors: [{ message: 'Must be 50 characters or less', code: 'invalid', field: 'name' }] } };
    const { input, onClose } = setup(vi.fn(async () => refused));
    fireEvent.change(input, { target: { value: 'Rear door' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(await screen.findByText('Must be 50 characters or less')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
