//! Every screen of the router, loaded on its first visit (`React.lazy`): each is a chunk of its
//! own, so the first screen ships only what it needs; the service worker precaches every chunk, so
//! a screen not yet visited still opens offline. A screen that composes another feature's part
//! loads both before it renders.
import { lazy, type ComponentType } from 'react';
import type { BelowCapture } from '../features/capture/routes/EvidencePage';

/** The component `load` resolves to, as a lazy screen. */
function screen<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => ({ default: await load() }));
}

// auth
export const StartPage = screen(() => import('../features/auth/routes/StartPage').then((m) => m.StartPage));
export const SignUpPage = screen(() => import('../features/auth/routes/SignUpPage').then((m) => m.SignUpPage));
export const LogInPage = screen(() => import('../features/auth/routes/LogInPage').then((m) => m.LogInPage));
export const RecoveryPage = screen(() => import('../features/auth/routes/RecoveryPage').then((m) => m.RecoveryPage));
export const JoinOrganizationPage = screen(() => import('../features/auth/routes/JoinOrganizationPage').then((m) => m.JoinOrganizationPage));

// dashboard
export const DashboardLayout = screen(() => import('../features/dashboard/routes/DashboardLayout').then((m) => m.DashboardLayout));
export const HomePage = screen(() => import('../features/dashboard/routes/HomePage').then((m) => m.HomePage));
export const SettingsPage = screen(() => import('../features/dashboard/routes/SettingsPage').then((m) => m.SettingsPage));
export const GuidePage = screen(() => import('../features/guide/routes/GuidePage').then((m) => m.GuidePage));

// account
export const AccountInfoPage = screen(() => import('../features/account/routes/AccountInfoPage').then((m) => m.AccountInfoPage));
export const ChangeAddressPage = screen(() => import('../features/account/routes/ChangeAddressPage').then((m) => m.ChangeAddressPage));
export const ChangePasswordPage = screen(() => import('../features/account/routes/ChangePasswordPage').then((m) => m.ChangePasswordPage));
export const DateAndTimePage = screen(() => import('../features/account/routes/DateAndTimePage').then((m) => m.DateAndTimePage));
export const EventsHistoryPage = screen(() => import('../features/account/routes/EventsHistoryPage').then((m) => m.EventsHistoryPage));

// capture: the futuregram panel under the capture is sharing's.
export const EvidencePage = lazy(async () => {
  const [{ EvidencePage: Page }, { FuturegramPanel }] = await Promise.all([
    import('../features/capture/routes/EvidencePage'),
    import('../features/sharing/components/FuturegramPanel'),
  ]);
  const below: BelowCapture = ({ situation, folderId }) => <FuturegramPanel situation={situation} folderId={folderId} />;
  return { default: () => <Page below={below} /> };
});

// files: the folder's 'Shares' section and the files' custody log are sharing's.
export const FolderViewPage = lazy(async () => {
  const [{ FolderViewPage: Page }, { FolderShares }, { FolderCustody }] = await Promise.all([
    import('../features/files/routes/FolderViewPage'),
    import('../features/sharing/components/FolderShares'),
    import('../features/sharing/components/FolderCustody'),
  ]);
  return { default: () => <Page shares={FolderShares} custody={FolderCustody} /> };
});
export const ProofMetadataPage = lazy(async () => {
  const [{ ProofMetadataPage: Page }, { FolderCustody }] = await Promise.all([
    import('../features/files/routes/ProofMetadataPage'),
    import('../features/sharing/components/FolderCustody'),
  ]);
  return { default: () => <Page custody={FolderCustody} /> };
});
export const MyFilesPage = screen(() => import('../features/files/routes/MyFilesPage').then((m) => m.MyFilesPage));
export const FolderMapPage = screen(() => import('../features/files/routes/FolderMapPage').then((m) => m.FolderMapPage));
export const FoldersMapPage = screen(() => import('../features/files/routes/FoldersMapPage').then((m) => m.FoldersMapPage));
export const DeleteFilesPage = screen(() => import('../features/files/routes/DeleteFilesPage').then((m) => m.DeleteFilesPage));

// rental
export const RentalStartPage = screen(() => import('../features/rental/routes/RentalStartPage').then((m) => m.RentalStartPage));
export const RentalCapturePage = screen(() => import('../features/rental/routes/RentalCapturePage').then((m) => m.RentalCapturePage));

// organization
export const ParticipantsPage = screen(() => import('../features/organization/routes/ParticipantsPage').then((m) => m.ParticipantsPage));
export const OrganizationCapturesPage = screen(() => import('../features/organization/routes/OrganizationCapturesPage').then((m) => m.OrganizationCapturesPage));
export const CaptureTemplatesPage = screen(() => import('../features/organization/routes/CaptureTemplatesPage').then((m) => m.CaptureTemplatesPage));
export const TemplateDetailsPage = screen(() => import('../features/organization/routes/TemplateDetailsPage').then((m) => m.TemplateDetailsPage));
export const OrganizationFolderPage = screen(() => import('../features/organization/routes/OrganizationFolderPage').then((m) => m.OrganizationFolderPage));
export const OrganizationEvidencePage = screen(() => import('../features/organization/routes/OrganizationEvidencePage').then((m) => m.OrganizationEvidencePage));

// contribution
export const ContributionVerificationPage = screen(() => import('../features/contribution/routes/ContributionVerificationPage').then((m) => m.ContributionVerificationPage));
export const ContributorFolderPage = screen(() => import('../features/contribution/routes/ContributorFolderPage').then((m) => m.ContributorFolderPage));
export const ContributorEvidencePage = screen(() => import('../features/contribution/routes/ContributorEvidencePage').then((m) => m.ContributorEvidencePage));

// wallet
export const StoredAccountPage = screen(() => import('../features/wallet/routes/StoredAccountPage').then((m) => m.StoredAccountPage));
export const WalletCongratulationsPage = screen(() => import('../features/wallet/routes/WalletCongratulationsPage').then((m) => m.WalletCongratulationsPage));

// checkout
export const ExtendStorageDatePage = screen(() => import('../features/checkout/routes/ExtendStorageDatePage').then((m) => m.ExtendStorageDatePage));
export const CheckoutPage = screen(() => import('../features/checkout/routes/CheckoutPage').then((m) => m.CheckoutPage));
export const TransactionInfoPage = screen(() => import('../features/checkout/routes/TransactionInfoPage').then((m) => m.TransactionInfoPage));
export const PricingModelsPage = screen(() => import('../features/checkout/routes/PricesPages').then((m) => m.PricingModelsPage));
export const PayAsYouGoPage = screen(() => import('../features/checkout/routes/PricesPages').then((m) => m.PayAsYouGoPage));
export const CostEstimatorPage = screen(() => import('../features/checkout/routes/PricesPages').then((m) => m.CostEstimatorPage));
export const ExtendStorageSuccessPage = screen(() => import('../features/checkout/routes/SuccessPages').then((m) => m.ExtendStorageSuccessPage));
export const PaymentSuccessPage = screen(() => import('../features/checkout/routes/SuccessPages').then((m) => m.PaymentSuccessPage));

// cards
export const PaymentMethodsPage = screen(() => import('../features/cards/routes/PaymentMethodsPage').then((m) => m.PaymentMethodsPage));
export const AddPaymentMethodPage = screen(() => import('../features/cards/routes/AddPaymentMethodPage').then((m) => m.AddPaymentMethodPage));
export const PaymentDetailsSetupPage = screen(() => import('../features/cards/routes/PaymentDetailsSetupPage').then((m) => m.PaymentDetailsSetupPage));

// info
export const LegalPage = screen(() => import('../features/info/routes/LegalPage').then((m) => m.LegalPage));
export const TermsPage = screen(() => import('../features/info/routes/TermsPage').then((m) => m.TermsPage));
export const PolicyPage = screen(() => import('../features/info/routes/PolicyPage').then((m) => m.PolicyPage));
export const FaqPage = screen(() => import('../features/info/routes/FaqPage').then((m) => m.FaqPage));
export const TechSupportPage = screen(() => import('../features/info/routes/TechSupportPage').then((m) => m.TechSupportPage));
export const ContactUsPage = screen(() => import('../features/info/routes/ContactUsPage').then((m) => m.ContactUsPage));
export const WalkthroughPage = screen(() => import('../features/info/routes/WalkthroughPage').then((m) => m.WalkthroughPage));

// deletion
export const DeletingAccountPage = screen(() => import('../features/deletion/routes/DeletingAccountPage').then((m) => m.DeletingAccountPage));
export const DeleteReasonsPage = screen(() => import('../features/deletion/routes/DeleteReasonsPage').then((m) => m.DeleteReasonsPage));
export const DeleteConfirmPage = screen(() => import('../features/deletion/routes/DeleteConfirmPage').then((m) => m.DeleteConfirmPage));

// sharing
export const ShareFilesPage = screen(() => import('../features/sharing/routes/ShareFilesPage').then((m) => m.ShareFilesPage));
export const TypeOfCopyPage = screen(() => import('../features/sharing/routes/TypeOfCopyPage').then((m) => m.TypeOfCopyPage));
export const WhoToShareWithPage = screen(() => import('../features/sharing/routes/WhoToShareWithPage').then((m) => m.WhoToShareWithPage));
export const ShareSuccessPage = screen(() => import('../features/sharing/routes/ShareSuccessPage').then((m) => m.ShareSuccessPage));
export const ChatsPage = screen(() => import('../features/sharing/routes/ChatsPage').then((m) => m.ChatsPage));
export const ChatPage = screen(() => import('../features/sharing/routes/ChatsPage').then((m) => m.ChatPage));
export const GetAccessEmailPage = screen(() => import('../features/sharing/routes/GetAccessEmailPage').then((m) => m.GetAccessEmailPage));
export const GetAccessConfirmPage = screen(() => import('../features/sharing/routes/GetAccessConfirmPage').then((m) => m.GetAccessConfirmPage));
export const AuthSharedFolderPage = screen(() => import('../features/sharing/routes/SharedFolderPage').then((m) => m.AuthSharedFolderPage));
export const UnauthSharedFolderPage = screen(() => import('../features/sharing/routes/SharedFolderPage').then((m) => m.UnauthSharedFolderPage));
export const FuturegramViewPage = screen(() => import('../features/sharing/routes/SharedFolderPage').then((m) => m.FuturegramViewPage));
export const ExecutorPage = screen(() => import('../features/sharing/routes/ExecutorPage').then((m) => m.ExecutorPage));
export const VerifyPage = screen(() => import('../features/sharing/routes/VerifyPage').then((m) => m.VerifyPage));

// referrals
export const ReferAFriendPage = screen(() => import('../features/referrals/routes/ReferAFriendPage').then((m) => m.ReferAFriendPage));
export const AboutReferProgramPage = screen(() => import('../features/referrals/routes/AboutReferProgramPage').then((m) => m.AboutReferProgramPage));
export const ReferralCodePage = screen(() => import('../features/referrals/routes/ReferralCodePage').then((m) => m.ReferralCodePage));
export const ReferByTypePage = screen(() => import('../features/referrals/routes/ReferByTypePage').then((m) => m.ReferByTypePage));
