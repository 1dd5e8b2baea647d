//! Opening and downloading a file: an expired one is refused with spec §8's info message; otherwise
//! a fresh presigned link from the download endpoint (the list's own links live 15 minutes and the
//! page may have been open longer), then the image viewer or the player.
import { useState } from 'react';
import { useAppDispatch } from '../../../lib/store/hooks';
import { ImageViewer } from '../../../components/media/ImageViewer';
import { VideoAudioPlayer } from '../../../components/media/VideoAudioPlayer';
import { EXPIRED_MESSAGE, useLazyDownloadItemQuery, type Item } from '../../../lib/api/evidence';
import { firstErrorMessage } from '../../../lib/api/errors';
import { showSnackbar } from '../../../lib/ui/uiSlice';

export const NOT_STORED_MESSAGE = 'This file has not been uploaded yet.';
const NO_LINK_MESSAGE = 'The file could not be opened. Please try again later.';

interface Open {
  item: Item;
  url: string;
}

export function useFileOpener() {
  const dispatch = useAppDispatch();
  const [fetchLink] = useLazyDownloadItemQuery();
  const [open, setOpen] = useState<Open | null>(null);

  const info = (message: string) => dispatch(showSnackbar({ message, type: 'info' }));

  /** A link to the file's bytes, or undefined after telling the user why there is none. */
  const linkFor = async (item: Item): Promise<string | undefined> => {
    if (item.expired) {
      info(EXPIRED_MESSAGE);
      return undefined;
    }
    if (!item.uploaded) {
      info(NOT_STORED_MESSAGE);
      return undefined;
    }
    const result = await fetchLink(item.id);
    if (result.data) return result.data.url;
    if (item.temporaryFileUrl) return item.temporaryFileUrl;
    info(firstErrorMessage(result.error, NO_LINK_MESSAGE));
    return undefined;
  };

  const openFile = async (item: Item) => {
    const url = await linkFor(item);
    if (url) setOpen({ item, url });
  };

  const downloadFile = async (item: Item) => {
    const url = await linkFor(item);
    if (!url) return;
    // The link is on the S3 origin, where `download` is ignored: the browser opens or saves it.
    const a = document.createElement('a');
    a.href = url;
    a.download = item.name;
    a.target = '_blank';
    a.rel = 'noopener';
    document.body.appendChild(a);
    a.click();
    a.remove();
  };

  const close = () => setOpen(null);
  let viewer = null;
  if (open) {
    viewer =
      open.item.mediaType === 'image' ? (
        <ImageViewer src={open.url} title={open.item.name} onClose={close} />
      ) : (
        <VideoAudioPlayer
          source={{ src: open.url, title: open.item.name, type: open.item.mediaType === 'audio' ? 'audio' : 'video' }}
          knownDuration={open.item.duration}
          onClose={close}
        />
      );
  }

  return { openFile, downloadFile, viewer };
}
