import { Suspense } from 'react'
import { Outlet } from 'react-router'
import { useMayUseConsole } from '../features/admin/admin.api.js'
import { ImpersonationBanner } from '../features/admin/ImpersonationBanner.js'
import { AccountSwitcher } from '../features/multi-session/AccountSwitcher.js'
import { useSignedIn } from '../features/session/RequireSession.js'
import { SignOutButton } from '../features/session/SignOutButton.js'
import type { SignedIn } from '../features/session/session.api.js'
import { VerifyEmailNudge } from '../features/verification/VerifyEmailNudge.js'
import { Loading } from '../ui/Skeleton.js'
import { AccountFrame } from './frames.js'
import { type Section, type SectionGroup, SectionNav } from './SectionNav.js'

// Later pages (organizations, API keys, connected accounts) join this list.
const SECTIONS: readonly Section[] = [
  { to: '/account', label: 'Profile', icon: 'user' },
  { to: '/account/email', label: 'Email', icon: 'mail' },
  { to: '/account/password', label: 'Password', icon: 'key' },
  { to: '/account/security', label: 'Security', icon: 'shield' },
  { to: '/account/activity', label: 'Activity', icon: 'activity' },
  { to: '/account/api-keys', label: 'API keys', icon: 'terminal' },
  // Not `end`: the organization's own pages keep "Organizations" marked.
  { to: '/account/organizations', label: 'Organizations', icon: 'users', end: false },
]

// The operator console, for those the server says may use it (and it checks every call again).
const OPERATOR: SectionGroup = {
  heading: 'Operator console',
  sections: [
    { to: '/admin/users', label: 'Users', icon: 'id-card', end: false },
    { to: '/admin/audit', label: 'Audit', icon: 'file-text' },
    { to: '/admin/oauth-clients', label: 'OAuth clients', icon: 'key' },
    { to: '/admin/webhooks', label: 'Webhooks', icon: 'refresh' },
  ],
}

const AccountNav = ({ admin = false }: { admin?: boolean }) => (
  <SectionNav label="Account" sections={SECTIONS} groups={admin ? [OPERATOR] : []} />
)

const AccountMenu = ({ signedIn }: { signedIn: SignedIn }) => (
  <div className="account-menu">
    <AccountSwitcher signedIn={signedIn} />
    <SignOutButton />
  </div>
)

/** Pages of a signed-in person: their account's sections, and sign-out. */
export const AccountLayout = () => {
  const signedIn = useSignedIn()
  const operator = useMayUseConsole(signedIn.user.id)
  return (
    <AccountFrame menu={<AccountMenu signedIn={signedIn} />} nav={<AccountNav admin={operator} />}>
      <ImpersonationBanner
        name={signedIn.user.name || signedIn.user.email}
        impersonatedBy={signedIn.session.impersonatedBy}
        userId={signedIn.user.id}
        expiresAt={signedIn.session.expiresAt}
      />
      <VerifyEmailNudge user={signedIn.user} />
      {/* Keyed by the person: switching accounts starts every page afresh, no form keeps the last one's details. */}
      <Suspense key={signedIn.user.id} fallback={<Loading cards={2} />}>
        <Outlet context={signedIn} />
      </Suspense>
    </AccountFrame>
  )
}
