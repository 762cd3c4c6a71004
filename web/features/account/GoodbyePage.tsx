import { useEffect } from 'react'
import { Link, useLocation, useParams } from 'react-router'
import { useBranding } from '../../ui/branding.js'
import { Icon } from '../../ui/icons.js'
import { PublicCard } from '../../ui/PublicCard.js'
import { Loading } from '../../ui/Skeleton.js'
import { arrived } from '../session/leaving.js'
import { useGetSessionQuery } from '../session/session.api.js'

/** Set by the delete form when the account was deleted at once. */
export type DeletedState = { deleted: true }

const isDeletedState = (state: unknown): state is DeletedState =>
  typeof state === 'object' && state !== null && Reflect.get(state, 'deleted') === true

/**
 * Where deletion ends: after the delete form (navigation state) or the mailed link (the server's
 * redirect to /goodbye/link). Opened any other way it claims nothing: a signed-in person learns their
 * account is still there.
 */
export const GoodbyePage = () => {
  const { productName } = useBranding()
  const { state } = useLocation()
  const { via } = useParams()
  const deleted = isDeletedState(state) || via === 'link'
  const { data: signedIn, isLoading } = useGetSessionQuery(undefined, { skip: deleted })
  useEffect(() => {
    arrived()
  }, [])

  if (deleted) {
    return (
      <PublicCard title="Your account is deleted" documentTitle="Account deleted">
        <span className="icon-circle icon-circle-success">
          <Icon name="check" size={22} />
        </span>
        <p>
          Your account and its sessions are gone, and you are signed out everywhere. Thank you for using
          {productName}.
        </p>
        <p>
          <Link to="/sign-up">Create a new account</Link>
        </p>
      </PublicCard>
    )
  }
  if (isLoading) return <Loading />
  if (signedIn) {
    return (
      <PublicCard title="Your account is still here" documentTitle="Account not deleted">
        <p>
          You are signed in as <strong>{signedIn.user.email}</strong>, and nothing has been deleted. To delete
          your account, use the danger zone on your profile.
        </p>
        <p>
          <Link to="/account" className="button button-primary">
            Go to your account
          </Link>
        </p>
      </PublicCard>
    )
  }
  return (
    <PublicCard title="You are signed out" documentTitle="Signed out">
      <p>Nothing to show here. Sign in to manage your account, or create a new one.</p>
      <p className="links">
        <Link to="/sign-in" className="button button-primary">
          Sign in
        </Link>
        <Link to="/sign-up">Create an account</Link>
      </p>
    </PublicCard>
  )
}
