import type { ReactNode } from 'react'
import { Link, useParams, useSearchParams } from 'react-router'
import { Icon } from '../../ui/icons.js'
import { Notice } from '../../ui/Notice.js'
import { PublicCard } from '../../ui/PublicCard.js'
import { Loading } from '../../ui/Skeleton.js'
import { usePendingEmailChange } from '../account/account.api.js'
import { type User, useGetSessionQuery } from '../session/session.api.js'
import { ResendVerification } from './ResendVerification.js'

// The server redirects here from the mailed link, with `error` set when the link did not work.
const PROBLEMS: Readonly<Record<string, string>> = {
  token_expired: 'This verification link has expired: links work for one hour.',
  invalid_token:
    'This verification link is not valid. It may have been used already, or copied incompletely.',
}

const Done = ({ title, children, signedIn }: { title: string; children: ReactNode; signedIn: boolean }) => (
  <PublicCard title={title}>
    <span className="icon-circle icon-circle-success">
      <Icon name="check" size={22} />
    </span>
    <Notice tone="success">{children}</Notice>
    <p>
      <Link to={signedIn ? '/account' : '/sign-in'} className="button button-primary">
        {signedIn ? 'Go to your account' : 'Sign in'}
      </Link>
    </p>
  </PublicCard>
)

const LinkProblem = ({ problem, user }: { problem: string; user: User | undefined }) => (
  <PublicCard title="We could not verify your email">
    <Notice tone="error">{PROBLEMS[problem] ?? 'This verification link did not work.'}</Notice>
    {user?.emailVerified ? (
      <p>
        Good news, though: your address {user.email} is already verified.{' '}
        <Link to="/account">Go to your account</Link>
      </p>
    ) : (
      <>
        <h2>Get a new link</h2>
        {user ? <p>We will send it to {user.email}.</p> : <p>Enter the address you signed up with.</p>}
        <ResendVerification
          email={user?.email ?? null}
          label="Send a new verification link"
          variant="primary"
        />
      </>
    )}
  </PublicCard>
)

/** Opened by hand, signed out: nothing happened here, so nothing is claimed. */
const NothingToShow = () => (
  <PublicCard title="Email verification">
    <p>
      This page shows the result of a verification link. To verify your address, open the link in the mail we
      sent you, or sign in to ask for a new one.
    </p>
    <p>
      <Link to="/sign-in" className="button button-primary">
        Sign in
      </Link>
    </p>
  </PublicCard>
)

const NotYet = ({ user }: { user: User }) => (
  <PublicCard title="Your email is not verified yet">
    <p>
      Open the link we sent to <strong>{user.email}</strong>, or ask for a new one.
    </p>
    <ResendVerification email={user.email} label="Send a verification link" variant="primary" />
  </PublicCard>
)

/**
 * The result of a mailed link: a sign-up's verification, or a step of an email change. Success is
 * said only when the server's redirect brought the person here (/email-verified/link or
 * /email-verified/change) or their account
 * shows it; opened by hand, the page says what is true instead.
 */
export const EmailVerifiedPage = () => {
  const [params] = useSearchParams()
  const { data: signedIn, isLoading } = useGetSessionQuery()
  const { via } = useParams()
  const fromLink = via === 'link' || via === 'change'
  const change = usePendingEmailChange(!signedIn || via !== 'change')
  const problem = params.get('error')
  const user = signedIn?.user

  if (isLoading) return <Loading />
  if (problem !== null) return <LinkProblem problem={problem} user={user} />
  if (change?.step === 'verify-new') {
    return (
      <Done title="Change approved" signedIn>
        Your current address approved the change. We have sent a link to <strong>{change.newEmail}</strong>:
        open it to verify the new address and finish the change.
      </Done>
    )
  }
  if (user && !user.emailVerified) return <NotYet user={user} />
  if (user || fromLink) {
    return (
      <Done title="Email verified" signedIn={Boolean(user)}>
        {user ? (
          <>
            Your email address <strong>{user.email}</strong> is confirmed.
          </>
        ) : (
          'Thank you: your email address is confirmed.'
        )}
      </Done>
    )
  }
  return <NothingToShow />
}
