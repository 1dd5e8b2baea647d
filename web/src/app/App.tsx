//! The app: store, session restore, router, shell (snackbar, network banner, update prompt).
import { Provider } from 'react-redux';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { PersistGate } from 'redux-persist/integration/react';
import { NetworkBanner } from '../components/NetworkBanner';
import { Snackbar } from '../components/Snackbar';
import { UpdatePrompt } from '../components/UpdatePrompt';
import { LogInPage } from '../features/auth/routes/LogInPage';
import { SignUpPage } from '../features/auth/routes/SignUpPage';
import { StartPage } from '../features/auth/routes/StartPage';
import { DashboardLayout } from '../features/dashboard/routes/DashboardLayout';
import { HomePage } from '../features/dashboard/routes/HomePage';
import { SettingsPage } from '../features/dashboard/routes/SettingsPage';
import { HOME, START } from '../lib/routing/accessTable';
import { Guard } from './Guard';
import { persistor, store } from './store';

export function App() {
  return (
    <Provider store={store}>
      <PersistGate loading={null} persistor={persistor}>
        <BrowserRouter>
          <NetworkBanner />
          <div className="container">
            <Guard>
              <Routes>
                <Route path="/" element={<StartPage />} />
                <Route path="/sign-up" element={<SignUpPage />} />
                <Route path="/log-in" element={<LogInPage />} />
                <Route path="/dashboard" element={<DashboardLayout />}>
                  <Route index element={<Navigate to={HOME} replace />} />
                  <Route path="home" element={<HomePage />} />
                  <Route path="settings" element={<SettingsPage />} />
                </Route>
                <Route path="*" element={<Navigate to={START} replace />} />
              </Routes>
            </Guard>
          </div>
          <Snackbar />
          <UpdatePrompt />
        </BrowserRouter>
      </PersistGate>
    </Provider>
  );
}
