import { Link, useLocation } from 'react-router'
import { useTitle } from '../../app/use-title.js'
import { emailFrom } from '../auth/navigation-state.js'
import { ResendVerification } from './ResendVerification.js'

/** Where sign-up lands: the account exists, the address still has to be confirmed. */
export const CheckEmailPage = () => {
  useTitle('Check your mail')
  const email = emailFrom(useLocation().state)
  return (
    <>
      <h1>Check your mail</h1>
      <p>
        We have sent a link to {email ? <strong>{email}</strong> : 'your email address'}. Open it to confirm
        the address; the link works for one hour.
      </p>
      <h2>No mail?</h2>
      <p>Look in your spam folder, or ask for a new link.</p>
      <ResendVerification email={email} />
      <p className="links">
        <Link to="/sign-in" state={email ? { email } : undefined}>
          Continue to sign in
        </Link>
      </p>
    </>
  )
}
