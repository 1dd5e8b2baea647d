//! The app's one upload queue, handed down through React context: the app makes it once over its
//! store (`app/uploadQueue.ts`) and capture screens take it with `useUploadQueue()`, so nothing
//! below the app imports the app's store; a test provides a queue over its own store.
import { createContext, useContext } from 'react';
import { offlineStore } from '../offline/offlineStore';
import type { AppDispatch } from '../store/hooks';
import { createUploadQueue, type UploadQueue } from './queue';
import { apiTransport, xhrSender } from './transport';

const UploadQueueContext = createContext<UploadQueue | null>(null);

export const UploadQueueProvider = UploadQueueContext.Provider;

/** The queue that sends this device's stored captures: the offline store, the evidence API, S3 through XMLHttpRequest. */
export function createDeviceUploadQueue(dispatch: AppDispatch): UploadQueue {
  return createUploadQueue({ store: offlineStore, transport: apiTransport(dispatch), sender: xhrSender, dispatch });
}

export function useUploadQueue(): UploadQueue {
  const queue = useContext(UploadQueueContext);
  if (!queue) throw new Error('useUploadQueue needs an UploadQueueProvider above it');
  return queue;
}
