import { Suspense } from 'react'
import { NavLink, Outlet } from 'react-router'
import { useSignedIn } from '../features/session/RequireSession.js'
import { SignOutButton } from '../features/session/SignOutButton.js'
import type { User } from '../features/session/session.api.js'
import { Icon, type IconName } from '../ui/icons.js'
import { Loading } from '../ui/Skeleton.js'
import { Truncate } from '../ui/Truncate.js'
import { AccountFrame, PublicFrame } from './frames.js'

/** Pages for people who are not (or not necessarily) signed in: one centred card. */
export const PublicLayout = () => (
  <PublicFrame>
    <Suspense fallback={<Loading />}>
      <Outlet />
    </Suspense>
  </PublicFrame>
)

// Later pages (organizations, API keys, connected accounts) join this list.
const SECTIONS: readonly { to: string; label: string; icon: IconName }[] = [
  { to: '/account', label: 'Profile', icon: 'user' },
  { to: '/account/email', label: 'Email', icon: 'mail' },
  { to: '/account/password', label: 'Password', icon: 'key' },
  { to: '/account/security', label: 'Security', icon: 'shield' },
  { to: '/account/activity', label: 'Activity', icon: 'activity' },
]

const AccountNav = () => (
  <nav aria-label="Account" className="side-nav">
    <ul>
      {SECTIONS.map((section) => (
        <li key={section.to}>
          <NavLink to={section.to} end>
            <Icon name={section.icon} />
            {section.label}
          </NavLink>
        </li>
      ))}
    </ul>
  </nav>
)

const initialOf = (user: User) => (user.name.trim() || user.email).charAt(0).toUpperCase()

export const Avatar = ({ user, size = 28 }: { user: User; size?: number }) =>
  user.image ? (
    <img className="avatar" src={user.image} alt="" width={size} height={size} />
  ) : (
    <span className="avatar" style={{ width: size, height: size, fontSize: size * 0.45 }} aria-hidden="true">
      {initialOf(user)}
    </span>
  )

const AccountMenu = ({ user }: { user: User }) => (
  <div className="account-menu">
    <span className="account-who">
      <Avatar user={user} />
      <Truncate text={user.name || user.email} />
    </span>
    <SignOutButton />
  </div>
)

/** Pages of a signed-in person: their account's sections, and sign-out. */
export const AccountLayout = () => {
  const signedIn = useSignedIn()
  return (
    <AccountFrame menu={<AccountMenu user={signedIn.user} />} nav={<AccountNav />}>
      <Suspense fallback={<Loading cards={2} />}>
        <Outlet context={signedIn} />
      </Suspense>
    </AccountFrame>
  )
}
