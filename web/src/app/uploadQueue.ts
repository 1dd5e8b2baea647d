//! The app's one upload queue: the offline store, the evidence API and S3 through XMLHttpRequest.
import { store } from './store';
import { offlineStore } from '../lib/offline/offlineStore';
import { createUploadQueue } from '../lib/upload/queue';
import { apiTransport, xhrSender } from '../lib/upload/transport';

export const uploadQueue = createUploadQueue({
  store: offlineStore,
  transport: apiTransport(store.dispatch),
  sender: xhrSender,
  dispatch: store.dispatch,
});
