import type { ReactNode } from 'react'
import { BackLink, Brand } from '../ui/Logo.js'
import { SkeletonLine } from '../ui/Skeleton.js'

/// The page frames, without any data: the account pages' loading state shows the same frame as
/// the pages themselves, so nothing jumps when the session arrives.

export const SkipLink = () => (
  <a className="skip-link" href="#main">
    Skip to content
  </a>
)

export const SiteHeader = ({ end }: { end?: ReactNode }) => (
  <header className="site-header">
    <div className="frame">
      <Brand />
      <div className="site-header-end">
        <BackLink />
        {end}
      </div>
    </div>
  </header>
)

/** Header, side navigation and content column of the signed-in area. */
export const AccountFrame = ({
  menu,
  nav,
  children,
}: {
  menu?: ReactNode
  nav: ReactNode
  children: ReactNode
}) => (
  <>
    <SkipLink />
    <SiteHeader end={menu} />
    <div className="frame account-main">
      {nav}
      <main id="main" className="account-content">
        {children}
      </main>
    </div>
  </>
)

/** The navigation's place while nothing is known yet. */
export const NavSkeleton = () => (
  <div className="side-nav" aria-hidden="true">
    <div className="skeleton-stack" style={{ padding: 'var(--space-3)' }}>
      <SkeletonLine width="70%" />
      <SkeletonLine width="55%" />
      <SkeletonLine width="65%" />
    </div>
  </div>
)

/** Header and one centred column, for people who are not (necessarily) signed in. */
export const PublicFrame = ({ children }: { children: ReactNode }) => (
  <>
    <SkipLink />
    <SiteHeader />
    <main id="main" className="public-main">
      <div className="public-column">{children}</div>
    </main>
  </>
)
