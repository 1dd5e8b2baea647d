//! The one RTK Query API; features add their endpoints with `injectEndpoints`.
import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQuery } from './baseQuery';

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Me', 'Folder', 'Item', 'StorageUsage', 'PaymentMethods', 'StoredAccount', 'Wallet', 'Transactions'],
  endpoints: () => ({}),
});
