//! The app: store, session restore, router, shell (snackbar, network banner, update prompt, idle
//! session). Every screen is lazy (`./screens`): the shell waits for one with a small spinner.
import { Suspense } from 'react';
import { Provider } from 'react-redux';
import { createBrowserRouter, createRoutesFromElements, Navigate, Outlet, Route, RouterProvider, useMatches } from 'react-router';
import { PersistGate } from 'redux-persist/integration/react';
import { NetworkBanner } from '../components/NetworkBanner';
import { ScreenLoading } from '../components/ScreenLoading';
import { Snackbar } from '../components/Snackbar';
import { UpdatePrompt } from '../components/UpdatePrompt';
import { HOME, START } from '../lib/routing/accessTable';
import { IdleSession } from '../lib/session/idleSession';
import { UploadQueueProvider } from '../lib/upload/uploadQueueContext';
import { Guard } from './Guard';
import {
  AboutReferProgramPage,
  AccountInfoPage,
  AddPaymentMethodPage,
  AuthSharedFolderPage,
  CaptureTemplatesPage,
  ChangeAddressPage,
  ChangePasswordPage,
  ChatPage,
  ChatsPage,
  CheckoutPage,
  ContactUsPage,
  ContributionVerificationPage,
  ContributorEvidencePage,
  ContributorFolderPage,
  CostEstimatorPage,
  DashboardLayout,
  DateAndTimePage,
  DeleteConfirmPage,
  DeleteFilesPage,
  DeleteReasonsPage,
  DeletingAccountPage,
  EventsHistoryPage,
  EvidencePage,
  ExecutorPage,
  ExtendStorageDatePage,
  ExtendStorageSuccessPage,
  FaqPage,
  FolderMapPage,
  FoldersMapPage,
  FolderViewPage,
  FuturegramViewPage,
  GetAccessConfirmPage,
  GetAccessEmailPage,
  GuidePage,
  HomePage,
  JoinOrganizationPage,
  LegalPage,
  LogInPage,
  MyFilesPage,
  OrganizationCapturesPage,
  OrganizationEvidencePage,
  OrganizationFolderPage,
  ParticipantsPage,
  PayAsYouGoPage,
  PaymentDetailsSetupPage,
  PaymentMethodsPage,
  PaymentSuccessPage,
  PolicyPage,
  PricingModelsPage,
  ProofMetadataPage,
  RecoveryPage,
  ReferAFriendPage,
  ReferByTypePage,
  ReferralCodePage,
  RentalCapturePage,
  RentalStartPage,
  SettingsPage,
  ShareFilesPage,
  ShareSuccessPage,
  SignUpPage,
  StartPage,
  StoredAccountPage,
  TechSupportPage,
  TemplateDetailsPage,
  TermsPage,
  TransactionInfoPage,
  TypeOfCopyPage,
  UnauthSharedFolderPage,
  VerifyPage,
  WalkthroughPage,
  WalletCongratulationsPage,
  WhoToShareWithPage,
} from './screens';
import { persistor, store } from './store';
import { uploadQueue } from './uploadQueue';

/** A route's handle that renders its screen outside the main content container. */
const UNCONTAINED = { uncontained: true } as const;

const isUncontained = (handle: unknown) => Boolean(handle && typeof handle === 'object' && 'uncontained' in handle && handle.uncontained);

/**
 * Banner, content container with the access guard, snackbar and update prompt around every
 * screen; a route whose handle is UNCONTAINED (the unauthenticated shared folder view, spec §2,
 * and a released futuregram's view, which is that same view) gets no container.
 */
function Shell() {
  const uncontained = useMatches().some((match) => isUncontained(match.handle));
  const screen = (
    <Guard>
      <Suspense fallback={<ScreenLoading />}>
        <Outlet />
      </Suspense>
    </Guard>
  );
  return (
    <>
      <NetworkBanner />
      {uncontained ? screen : <div className="container">{screen}</div>}
      <Snackbar />
      <UpdatePrompt />
      {/* idle session: refreshes the session when the user is idle */}
      <IdleSession />
    </>
  );
}

// A data router, so screens can block leaving (useBlocker) while work would be lost.
const router = createBrowserRouter(
  createRoutesFromElements(
    <Route element={<Shell />}>
      <Route path="/" element={<StartPage />} />
      <Route path="/sign-up" element={<SignUpPage />} />
      {/* organization routes: /sign-up-organization, /join-organization/:code, /organization-participants, /dashboard/organization-captures */}
      <Route path="/sign-up-organization" element={<SignUpPage key="organization" kind="organization" />} />
      <Route path="/join-organization/:code" element={<JoinOrganizationPage />} />
      <Route path="/organization-participants" element={<ParticipantsPage />} />
      {/* organization capture (signed in): templates, template details, organization folders, capture into a step */}
      <Route path="/organization-capture-templates/:viewMode" element={<CaptureTemplatesPage />} />
      <Route path="/template-details/:templateId" element={<TemplateDetailsPage />} />
      <Route path="/organization-folder/:folderId" element={<OrganizationFolderPage />} />
      <Route path="/organization-evidence/:folderId/:stepId" element={<OrganizationEvidencePage />} />
      {/* anonymous contribution (public-only): prove the e-mail, the folder, capture into a step */}
      <Route path="/organization-sharing/verification/:folderId" element={<ContributionVerificationPage />} />
      <Route path="/organization-sharing/folder/:folderId" element={<ContributorFolderPage />} />
      <Route path="/organization-sharing/evidence/:folderId/:stepId" element={<ContributorEvidencePage />} />
      <Route path="/log-in" element={<LogInPage />} />
      {/* recovery routes: /recovery/:type */}
      <Route path="/recovery/:type" element={<RecoveryPage />} />
      <Route path="/dashboard" element={<DashboardLayout />}>
        <Route index element={<Navigate to={HOME} replace />} />
        <Route path="home" element={<HomePage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="my-files" element={<MyFilesPage />} />
        <Route path="organization-captures" element={<OrganizationCapturesPage />} />
        {/* dashboard routes: my-files, guide */}
        <Route path="guide" element={<GuidePage />} />
      </Route>
      {/* account routes: /account-info, /change-address, /change-password, /date-and-time, /events-history */}
      <Route path="/account-info" element={<AccountInfoPage />} />
      <Route path="/change-address" element={<ChangeAddressPage />} />
      <Route path="/change-password" element={<ChangePasswordPage />} />
      <Route path="/date-and-time" element={<DateAndTimePage />} />
      <Route path="/events-history" element={<EventsHistoryPage />} />
      {/* capture routes: /evidence */}
      {/* The capture's futuregram panel, the folder's 'Shares' section and the files' custody log are sharing's, composed in ./screens. */}
      <Route path="/evidence" element={<EvidencePage />} />
      <Route path="/folder-view" element={<FolderViewPage />} />
      <Route path="/folder-map-view" element={<FolderMapPage />} />
      <Route path="/folders-map-view" element={<FoldersMapPage />} />
      <Route path="/delete-files/:folderId" element={<DeleteFilesPage />} />
      <Route path="/proof-metadata-view/:folderId" element={<ProofMetadataPage />} />
      {/* files routes: /folder-view, /folder-map-view, /folders-map-view, /delete-files, /proof-metadata-view */}
      {/* rental routes: /vehicle-rental, /hotel-rental */}
      <Route path="/vehicle-rental" element={<RentalStartPage key="vehicle" kind="vehicle" />} />
      <Route path="/vehicle-rental/capture" element={<RentalCapturePage kind="vehicle" />} />
      <Route path="/hotel-rental" element={<RentalStartPage key="hotel" kind="hotel" />} />
      <Route path="/hotel-rental/capture" element={<RentalCapturePage kind="hotel" />} />
      {/* wallet routes: /stored-account, /wallet-congratulations */}
      <Route path="/stored-account" element={<StoredAccountPage />} />
      <Route path="/wallet-congratulations" element={<WalletCongratulationsPage />} />
      {/* checkout routes: /extend-storage-date, /checkout, /transaction-info, /pricing-models, /pay-as-you-go, /cost-estimator-tool, /extend-storage-success, /payment-success */}
      <Route path="/extend-storage-date/:folderId" element={<ExtendStorageDatePage />} />
      <Route path="/checkout" element={<CheckoutPage />} />
      <Route path="/transaction-info" element={<TransactionInfoPage />} />
      <Route path="/pricing-models" element={<PricingModelsPage />} />
      <Route path="/pay-as-you-go" element={<PayAsYouGoPage />} />
      <Route path="/cost-estimator-tool" element={<CostEstimatorPage />} />
      <Route path="/extend-storage-success" element={<ExtendStorageSuccessPage />} />
      <Route path="/payment-success" element={<PaymentSuccessPage />} />
      {/* cards routes: /payment-methods, /payment-methods/add, /payment-details-setup */}
      <Route path="/payment-methods" element={<PaymentMethodsPage />} />
      <Route path="/payment-methods/add" element={<AddPaymentMethodPage />} />
      <Route path="/payment-details-setup" element={<PaymentDetailsSetupPage />} />
      {/* info routes: /legal, /legal/terms, /legal/policy, /faq, /tech-support, /contact-us, /walkthrough */}
      <Route path="/legal" element={<LegalPage />} />
      <Route path="/legal/terms" element={<TermsPage />} />
      <Route path="/legal/policy" element={<PolicyPage />} />
      <Route path="/faq" element={<FaqPage />} />
      <Route path="/tech-support" element={<TechSupportPage />} />
      <Route path="/contact-us" element={<ContactUsPage />} />
      <Route path="/walkthrough" element={<WalkthroughPage />} />
      {/* deletion routes: /deleting-of-evidentia-account, /deleting-my-account-reasons, /deleting-my-account-confirm */}
      <Route path="/deleting-of-evidentia-account" element={<DeletingAccountPage />} />
      <Route path="/deleting-my-account-reasons" element={<DeleteReasonsPage />} />
      <Route path="/deleting-my-account-confirm" element={<DeleteConfirmPage />} />
      {/* referral routes (signed in; /sign-up?referred=true&code= is the sign-up screen's): /refer-a-friend, /about-refer-program, /referral-code, /refer/:type (sms or email) */}
      <Route path="/refer-a-friend" element={<ReferAFriendPage />} />
      <Route path="/about-refer-program" element={<AboutReferProgramPage />} />
      <Route path="/referral-code" element={<ReferralCodePage />} />
      <Route path="/refer/:type" element={<ReferByTypePage />} />
      {/* sharing routes: /share-files, /type-of-copy, /who-you-want-to-share, /share-success, /get-access-email, /get-access-confirm, /auth-shared-folder, /unauth-shared-folder, /verify */}
      <Route path="/share-files/:folderId" element={<ShareFilesPage />} />
      <Route path="/type-of-copy/:folderId" element={<TypeOfCopyPage />} />
      <Route path="/who-you-want-to-share/:folderId" element={<WhoToShareWithPage />} />
      <Route path="/share-success" element={<ShareSuccessPage />} />
      <Route path="/chats" element={<ChatsPage />} />
      <Route path="/chats/:sharingId" element={<ChatPage />} />
      <Route path="/get-access-email/:folderToken/email/:emailToken" element={<GetAccessEmailPage />} />
      <Route path="/get-access-confirm" element={<GetAccessConfirmPage />} />
      <Route path="/auth-shared-folder" element={<AuthSharedFolderPage />} />
      <Route path="/unauth-shared-folder" element={<UnauthSharedFolderPage />} handle={UNCONTAINED} />
      <Route path="/futuregram/view/:token" element={<FuturegramViewPage />} handle={UNCONTAINED} />
      <Route path="/futuregram/executor/:action/:token" element={<ExecutorPage />} />
      <Route path="/verify" element={<VerifyPage />} />
      <Route path="/verify/:transactionNumber" element={<VerifyPage />} />
      <Route path="*" element={<Navigate to={START} replace />} />
    </Route>,
  ),
);

export function App() {
  return (
    <Provider store={store}>
      <UploadQueueProvider value={uploadQueue}>
        <PersistGate loading={null} persistor={persistor}>
          <RouterProvider router={router} />
        </PersistGate>
      </UploadQueueProvider>
    </Provider>
  );
}
