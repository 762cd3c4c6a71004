import { Link, NavLink, Outlet } from 'react-router'
import { useSignedIn } from '../features/session/RequireSession.js'
import { SignOutButton } from '../features/session/SignOutButton.js'

const SkipLink = () => (
  <a className="skip-link" href="#main">
    Skip to content
  </a>
)

const Brand = () => (
  <Link to="/" className="brand">
    Tessera
  </Link>
)

/** Pages for people who are not (or not necessarily) signed in: one narrow column. */
export const PublicLayout = () => (
  <>
    <SkipLink />
    <header className="site-header">
      <Brand />
    </header>
    <main id="main" className="page narrow">
      <Outlet />
    </main>
  </>
)

/** Pages of a signed-in person: navigation between their account pages, and sign-out. */
export const AccountLayout = () => {
  const signedIn = useSignedIn()
  return (
    <>
      <SkipLink />
      <header className="site-header">
        <Brand />
        <nav aria-label="Account" className="site-nav">
          <NavLink to="/account">Account</NavLink>
          <NavLink to="/security">Security</NavLink>
          <NavLink to="/activity">Activity</NavLink>
        </nav>
        <div className="who">
          <span className="who-name">{signedIn.user.name || signedIn.user.email}</span>
          <SignOutButton />
        </div>
      </header>
      <main id="main" className="page">
        <Outlet context={signedIn} />
      </main>
    </>
  )
}
