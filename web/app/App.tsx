import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react'
import { Navigate, Route, Routes } from 'react-router'
import { GuestOnly } from '../features/session/GuestOnly.js'
import { Home } from '../features/session/Home.js'
import { Loading } from '../ui/Skeleton.js'
import { AccountFrame, NavSkeleton } from './frames.js'
import { PublicLayout } from './PublicLayout.js'

// Each page is its own chunk: the first visit loads the frame and one page, not the portal.
const page = <Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
): LazyExoticComponent<ComponentType> => lazy(async () => ({ default: (await load())[name] }))

// The store and everything built on it: not needed by the pages a visit starts on.
const StoreBoundary = page(() => import('./StoreBoundary.js'), 'StoreBoundary')
const AccountLayout = page(() => import('./layouts.js'), 'AccountLayout')
const RequireSession = page(() => import('../features/session/RequireSession.js'), 'RequireSession')

/** What the account area shows while its code loads: the frame of the loading account. */
const AccountLoading = () => (
  <AccountFrame nav={<NavSkeleton />}>
    <Loading label="Loading your account…" cards={2} />
  </AccountFrame>
)

const SignInPage = page(() => import('../features/auth/SignInPage.js'), 'SignInPage')
const SignUpPage = page(() => import('../features/auth/SignUpPage.js'), 'SignUpPage')
const ForgotPasswordPage = page(() => import('../features/auth/ForgotPasswordPage.js'), 'ForgotPasswordPage')
const ResetPasswordPage = page(() => import('../features/auth/ResetPasswordPage.js'), 'ResetPasswordPage')
const MagicLinkLandingPage = page(
  () => import('../features/passwordless/MagicLinkLandingPage.js'),
  'MagicLinkLandingPage',
)
const OAuthLoginPage = page(() => import('../features/oauth-provider/OAuthLoginPage.js'), 'OAuthLoginPage')
const OAuthConsentPage = page(
  () => import('../features/oauth-provider/OAuthConsentPage.js'),
  'OAuthConsentPage',
)
const CheckEmailPage = page(() => import('../features/verification/CheckEmailPage.js'), 'CheckEmailPage')
const EmailVerifiedPage = page(
  () => import('../features/verification/EmailVerifiedPage.js'),
  'EmailVerifiedPage',
)
const ConfirmDeletionPage = page(
  () => import('../features/account/ConfirmDeletionPage.js'),
  'ConfirmDeletionPage',
)
const GoodbyePage = page(() => import('../features/account/GoodbyePage.js'), 'GoodbyePage')
const NotFoundPage = page(() => import('./NotFoundPage.js'), 'NotFoundPage')
const TwoFactorPage = page(() => import('../features/two-factor/TwoFactorPage.js'), 'TwoFactorPage')
const ProfilePage = page(() => import('../features/account/ProfilePage.js'), 'ProfilePage')
const EmailPage = page(() => import('../features/account/EmailPage.js'), 'EmailPage')
const PasswordPage = page(() => import('../features/account/PasswordPage.js'), 'PasswordPage')
const SecurityPage = page(() => import('../features/sessions/SecurityPage.js'), 'SecurityPage')
const ActivityPage = page(() => import('../features/activity/ActivityPage.js'), 'ActivityPage')
const ApiKeysPage = page(() => import('../features/api-keys/ApiKeysPage.js'), 'ApiKeysPage')
const AdminUsersPage = page(() => import('../features/admin/AdminUsersPage.js'), 'AdminUsersPage')
const AdminUserPage = page(() => import('../features/admin/AdminUserPage.js'), 'AdminUserPage')
const AdminAuditPage = page(() => import('../features/admin/AdminAuditPage.js'), 'AdminAuditPage')
const OAuthClientsPage = page(
  () => import('../features/oauth-provider/OAuthClientsPage.js'),
  'OAuthClientsPage',
)
const WebhooksConsolePage = page(
  () => import('../features/webhooks/WebhooksConsolePage.js'),
  'WebhooksConsolePage',
)
const OrganizationsPage = page(
  () => import('../features/organizations/OrganizationsPage.js'),
  'OrganizationsPage',
)
const OrganizationLayout = page(
  () => import('../features/organizations/OrganizationLayout.js'),
  'OrganizationLayout',
)
const MembersPage = page(() => import('../features/organizations/MembersPage.js'), 'MembersPage')
const InvitationsPage = page(() => import('../features/organizations/InvitationsPage.js'), 'InvitationsPage')
const TeamsPage = page(() => import('../features/organizations/TeamsPage.js'), 'TeamsPage')
const OrganizationActivityPage = page(
  () => import('../features/organizations/OrganizationActivityPage.js'),
  'OrganizationActivityPage',
)
const OrganizationApiKeysPage = page(
  () => import('../features/organizations/OrganizationApiKeysPage.js'),
  'OrganizationApiKeysPage',
)
const OrganizationSettingsPage = page(
  () => import('../features/organizations/OrganizationSettingsPage.js'),
  'OrganizationSettingsPage',
)
const AcceptInvitationPage = page(
  () => import('../features/organizations/AcceptInvitationPage.js'),
  'AcceptInvitationPage',
)

/** Every page of the portal. The server answers these paths with index.html (SPA fallback). */
export const App = () => (
  <Routes>
    <Route element={<PublicLayout />}>
      <Route index element={<Home />} />
      <Route element={<GuestOnly />}>
        <Route path="sign-in" element={<SignInPage />} />
        <Route path="sign-up" element={<SignUpPage />} />
        <Route path="forgot-password" element={<ForgotPasswordPage />} />
        <Route path="two-factor" element={<TwoFactorPage />} />
      </Route>
      <Route path="reset-password" element={<ResetPasswordPage />} />
      <Route path="signed-in-by-link" element={<MagicLinkLandingPage />} />
      <Route path="oauth/login" element={<OAuthLoginPage />} />
      <Route path="oauth/consent" element={<OAuthConsentPage />} />
      {/* Pages after a mailed link or an account action: they need the store. */}
      <Route element={<StoreBoundary />}>
        <Route path="check-email" element={<CheckEmailPage />} />
        <Route path="email-verified" element={<EmailVerifiedPage />} />
        <Route path="email-verified/:via" element={<EmailVerifiedPage />} />
        <Route path="confirm-deletion" element={<ConfirmDeletionPage />} />
        <Route path="goodbye" element={<GoodbyePage />} />
        <Route path="goodbye/:via" element={<GoodbyePage />} />
        <Route path="accept-invitation/:id" element={<AcceptInvitationPage />} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Route>
    <Route
      element={
        <Suspense fallback={<AccountLoading />}>
          <StoreBoundary />
        </Suspense>
      }
    >
      <Route element={<RequireSession />}>
        <Route element={<AccountLayout />}>
          <Route path="account" element={<ProfilePage />} />
          <Route path="account/email" element={<EmailPage />} />
          <Route path="account/password" element={<PasswordPage />} />
          <Route path="account/security" element={<SecurityPage />} />
          <Route path="account/activity" element={<ActivityPage />} />
          <Route path="account/api-keys" element={<ApiKeysPage />} />
          <Route path="admin/users" element={<AdminUsersPage />} />
          <Route path="admin/users/:userId" element={<AdminUserPage />} />
          <Route path="admin/audit" element={<AdminAuditPage />} />
          <Route path="admin/oauth-clients" element={<OAuthClientsPage />} />
          <Route path="admin/webhooks" element={<WebhooksConsolePage />} />
          <Route path="account/organizations" element={<OrganizationsPage />} />
          <Route path="account/organizations/:organizationId" element={<OrganizationLayout />}>
            <Route index element={<MembersPage />} />
            <Route path="invitations" element={<InvitationsPage />} />
            <Route path="teams" element={<TeamsPage />} />
            <Route path="activity" element={<OrganizationActivityPage />} />
            <Route path="api-keys" element={<OrganizationApiKeysPage />} />
            <Route path="settings" element={<OrganizationSettingsPage />} />
          </Route>
        </Route>
      </Route>
    </Route>
    {/* The account pages' first addresses, kept working for bookmarks. */}
    <Route path="security" element={<Navigate to="/account/security" replace />} />
    <Route path="activity" element={<Navigate to="/account/activity" replace />} />
  </Routes>
)
