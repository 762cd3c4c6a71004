import { useEffect } from 'react'
import { Link, Navigate, useSearchParams } from 'react-router'
import { signedIn } from '../../app/session-events.js'
import { Notice } from '../../ui/Notice.js'
import { PublicCard } from '../../ui/PublicCard.js'

// The server sends the browser here from a followed sign-in link, with `error` when it did not work.
const PROBLEMS: Readonly<Record<string, string>> = {
  INVALID_TOKEN:
    'This sign-in link does not work: it was used already, it expired (links last a few minutes), or it was copied incompletely.',
  new_user_signup_disabled:
    'There is no account with this email address, and new accounts cannot be made this way.',
}

/** Where a path from the link goes: a path of this site only, never another origin. */
const nextPath = (next: string | null): string =>
  next?.startsWith('/') && !next.startsWith('//') ? next : '/account'

/** The landing after a sign-in link: on to the page asked for, or what went wrong in words. */
export const MagicLinkLandingPage = () => {
  const [params] = useSearchParams()
  const error = params.get('error')
  // The server set the session cookie before sending the browser here: drop what was cached.
  useEffect(() => {
    if (!error) signedIn()
  }, [error])
  if (!error) return <Navigate to={nextPath(params.get('next'))} replace />
  return (
    <PublicCard title="We could not sign you in">
      <Notice tone="error">{PROBLEMS[error] ?? 'This sign-in link did not work.'}</Notice>
      <p>
        <Link to="/sign-in" className="button button-primary">
          Back to sign in
        </Link>
      </p>
    </PublicCard>
  )
}
