//! The app's one upload queue, over the app's store; `App` provides it to the capture screens.
import { createDeviceUploadQueue } from '../lib/upload/uploadQueueContext';
import { store } from './store';

export const uploadQueue = createDeviceUploadQueue(store.dispatch);
