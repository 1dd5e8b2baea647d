//! 'Download evidence packet' for a recipient who checked a code: a ZIP of the copies they
//! received with their originals' signed receipts and custody logs (entries about other
//! recipients show only their place in the chain), and the `verify.sh` that checks it offline.
//! The button asks for a short-lived link and follows it; the browser downloads the ZIP as it
//! streams.
import { useAppDispatch } from '../../../lib/store/hooks';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { alreadyReported, firstErrorMessage } from '../../../lib/api/errors';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useCreateRecipientPacketMutation } from '../api/sharingApi';
import { followDownload, PACKET_FAILED } from './FolderCustody';
import '../sharing.css';

interface Props {
  token: string;
  /** How the packet's link is followed (a test watches it). */
  follow?: (url: string) => void;
}

export function RecipientPacket({ token, follow = followDownload }: Props) {
  const dispatch = useAppDispatch();
  const [create, creating] = useCreateRecipientPacketMutation();

  const download = async () => {
    const result = await create(token);
    if ('error' in result) {
      if (!alreadyReported(result.error)) {
        dispatch(showSnackbar({ message: firstErrorMessage(result.error, PACKET_FAILED), type: 'error' }));
      }
      return;
    }
    follow(result.data.url);
  };

  return (
    <div className="sharing-packet">
      <PrimaryButton variant="secondary" loading={creating.isLoading} onClick={() => void download()}>
        Download evidence packet
      </PrimaryButton>
      <p className="muted">A ZIP of these copies with the signed receipts of their originals and their custody logs. Anyone can check it offline: the VERIFY.md inside explains how.</p>
    </div>
  );
}
