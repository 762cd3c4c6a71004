import { Link, useSearchParams } from 'react-router'
import { useTitle } from '../../app/use-title.js'
import { Loading } from '../forms/Loading.js'
import { useGetSessionQuery } from '../session/session.api.js'
import { ResendVerification } from './ResendVerification.js'

// The server redirects here from the mailed link, with `error` set when the link did not work.
const PROBLEMS: Readonly<Record<string, string>> = {
  token_expired: 'This verification link has expired: links work for one hour.',
  invalid_token:
    'This verification link is not valid. It may have been used already, or copied incompletely.',
}

const Verified = ({ signedIn }: { signedIn: boolean }) => (
  <>
    <h1>Email verified</h1>
    <div role="status" className="alert alert-success">
      Thank you: your email address is confirmed.
    </div>
    <p className="links">
      {signedIn ? <Link to="/account">Go to your account</Link> : <Link to="/sign-in">Sign in</Link>}
    </p>
  </>
)

export const EmailVerifiedPage = () => {
  useTitle('Email verification')
  const [params] = useSearchParams()
  const { data: signedIn, isLoading } = useGetSessionQuery()
  const problem = params.get('error')
  if (isLoading) return <Loading />
  if (problem === null) return <Verified signedIn={Boolean(signedIn)} />

  const user = signedIn?.user
  return (
    <>
      <h1>We could not verify your email</h1>
      <div role="alert" className="alert alert-error">
        {PROBLEMS[problem] ?? 'This verification link did not work.'}
      </div>
      {user?.emailVerified ? (
        <p>
          Good news, though: your address {user.email} is already verified.{' '}
          <Link to="/account">Go to your account</Link>
        </p>
      ) : (
        <>
          <h2>Get a new link</h2>
          {user ? <p>We will send it to {user.email}.</p> : <p>Enter the address you signed up with.</p>}
          <ResendVerification email={user?.email ?? null} label="Send a new verification link" />
        </>
      )}
    </>
  )
}
