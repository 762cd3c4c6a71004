import { Link, useLocation } from 'react-router'
import { Icon } from '../../ui/icons.js'
import { PublicCard } from '../../ui/PublicCard.js'
import { emailFrom } from '../auth/navigation-state.js'
import { usePortalConfig } from '../config/config.api.js'
import { ResendVerification } from './ResendVerification.js'

const signedInFrom = (state: unknown): boolean =>
  typeof state === 'object' && state !== null && Reflect.get(state, 'signedIn') === true

const Address = ({ email }: { email: string | null }) =>
  email ? <strong>{email}</strong> : <>your email address</>

/** Where sign-up lands: the account exists, the address still has to be confirmed. */
export const CheckEmailPage = () => {
  const state = useLocation().state
  const email = emailFrom(state)
  // Only a server that says it mails on sign-up may be quoted as having sent something.
  const sent = usePortalConfig()?.emailVerification.sendOnSignUp === true
  // Sign-up answers a session token when it signed the person in: then their account is next, not
  // a sign-in they do not need.
  const after = (
    <p>
      {signedInFrom(state) ? (
        <Link to="/account">Continue to your account</Link>
      ) : (
        <Link to="/sign-in" state={email ? { email } : undefined}>
          Continue to sign in
        </Link>
      )}
    </p>
  )
  if (sent) {
    return (
      <PublicCard title="Check your mail" after={after}>
        <span className="icon-circle icon-circle-info">
          <Icon name="mail" size={22} />
        </span>
        <p>
          Your account is created. We have sent a link to <Address email={email} />: open it to confirm the
          address. The link works for one hour.
        </p>
        <p className="muted small">
          No mail after a few minutes? Look in your spam folder, or ask for a new one.
        </p>
        <ResendVerification email={email} />
      </PublicCard>
    )
  }
  return (
    <PublicCard title="Confirm your email address" after={after}>
      <span className="icon-circle icon-circle-info">
        <Icon name="mail" size={22} />
      </span>
      <p>
        Your account is created. To confirm that <Address email={email} /> is yours, ask for a link below and
        open it from your mailbox. The link works for one hour.
      </p>
      <ResendVerification email={email} label="Send me the link" variant="primary" first />
    </PublicCard>
  )
}
