import { Link, useLocation } from 'react-router'
import { Notice } from '../../ui/Notice.js'
import type { SignedIn } from '../session/session.api.js'

/**
 * On every account page of a person whose address is not confirmed yet: a standing reminder that
 * leads to the Email page (which sends the link). Not on that page itself, which says it already.
 */
export const VerifyEmailNudge = ({ user }: { user: SignedIn['user'] }) => {
  const { pathname } = useLocation()
  if (user.emailVerified || pathname === '/account/email') return null
  return (
    <Notice tone="warning" live="none" title="Confirm your email address">
      <span className="break-anywhere">{user.email}</span> is not confirmed yet: until it is, we may not be
      able to help you back into your account. <Link to="/account/email">Confirm it on the Email page</Link>
    </Notice>
  )
}
