//! Rename a folder or a file: the file-name rule of spec §5 as the user types, then the server's
//! field error if it refuses.
import { zodResolver } from '@hookform/resolvers/zod';
import { useRef, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ConfirmDialog } from './ConfirmDialog';
import { TextField } from './TextField';
import { fieldErrors, firstErrorMessage } from '../lib/api/errors';
import { FILE_NAME_INPUT_MAX_LENGTH, fileName } from '../lib/validation/fileName';

const schema = z.object({ name: fileName });
type Values = z.input<typeof schema>;

interface Props {
  title: string;
  initialName: string;
  /** Resolves with the error of a refused rename, or undefined when it was saved. */
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}

export function RenameDialog({ title, initialName, onSubmit, onClose }: Props) {
  const { register, handleSubmit, formState, setError } = useForm<Values>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: { name: initialName },
  });

  // Set from the press to the answer: Enter in the field, like Save, sends the name once.
  const saving = useRef(false);
  const save = handleSubmit(async ({ name }) => {
    const error = await onSubmit(name.trim());
    if (error === undefined) {
      onClose();
      return;
    }
    setError('name', { message: fieldErrors(error).name ?? firstErrorMessage(error, 'The name was not changed.') });
  });
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (saving.current) return;
    saving.current = true;
    try {
      await save(e);
    } finally {
      saving.current = false;
    }
  };

  return (
    <ConfirmDialog
      isOpen
      title={title}
      buttons={[
        { text: 'Save', onClick: () => void submit(), isHighlighted: true, loading: formState.isSubmitting },
        { text: 'Cancel', onClick: onClose },
      ]}
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextField label="Name" autoFocus maxLength={FILE_NAME_INPUT_MAX_LENGTH} {...register('name')} error={formState.errors.name?.message} />
      </form>
    </ConfirmDialog>
  );
}
