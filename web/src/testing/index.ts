//! The one test harness (Redux Toolkit's renderWithProviders idea): a store from the app's reducer,
//! the fetch table the API is answered from, rendering in a data router (behind the access guard
//! when asked), the answers several features share, and the device's stand-ins for `vi.mock`.
export { FakeRecorder, instantSender, memoryCaptures, memoryOfflineStore } from './device';
export { answer, holdCalls, noContent, queriesOf, serve, type Answer, type ApiCall, type Route, type Router } from './fetch';
export { apiCard, apiFolder, apiItem, apiProfile, apiStoredAccount, NO_WALLET } from './fixtures';
export { renderAt, renderWithStore, type RenderOptions } from './render';
export { makeTestStore, type TestStore, type TestStoreOptions } from './store';
