import { useState } from 'react'
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router'
import { SubmitButton } from '../../ui/Button.js'
import { ErrorState } from '../../ui/ErrorState.js'
import { Form, FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { PublicCard } from '../../ui/PublicCard.js'
import { Loading } from '../../ui/Skeleton.js'
import { isApiError } from '../errors/api-error.js'
import { type FormErrors, noErrors, placeError } from '../errors/form-errors.js'
import { messageFor } from '../errors/messages.js'
import { useGetSessionQuery } from '../session/session.api.js'
import { useForgetSession } from '../session/use-session-actions.js'
import { DELETED_CALLBACK, useDeleteUserMutation } from './account.api.js'

/// Where the mailed deletion link lands when the browser that opens it is signed out: the server
/// redirects to /confirm-deletion?token=T. The person signs in (and comes back here), then confirms;
/// the portal posts the token back. Nothing is deleted by opening the link alone. A link the server
/// no longer knows (used, expired: the account may be gone) arrives as ?error=INVALID_TOKEN.

const LinkNoLongerValid = ({ signedIn }: { signedIn: boolean }) => (
  <PublicCard
    title="This link is no longer valid"
    documentTitle="Link not valid"
    after={
      <p>
        <Link to={signedIn ? '/account' : '/sign-in'}>{signedIn ? 'Back to your account' : 'Sign in'}</Link>
      </p>
    }
  >
    {signedIn ? (
      <Notice tone="error">
        The link to delete your account has expired or has been used already. Your account has not been
        deleted.
      </Notice>
    ) : (
      // Signed out we cannot tell whether this link already deleted the account it was sent for.
      <Notice tone="error">
        The link to delete an account has expired or has been used already. If you confirmed the deletion with
        it, that account is gone; otherwise it is as it was.
      </Notice>
    )}
    <p>
      To delete your account, sign in, ask for a new link in the danger zone of your profile, and open it
      within a day.
    </p>
  </PublicCard>
)

const SignInFirst = ({ back }: { back: string }) => (
  <PublicCard
    title="Sign in to delete your account"
    documentTitle="Confirm deletion"
    description="You opened the link to delete your account."
  >
    <p>
      To make sure it is you, sign in first. We then bring you back here, and you confirm the deletion.
      Nothing is deleted until you do.
    </p>
    <p>
      <Link to="/sign-in" state={{ from: back }} className="button button-primary">
        Sign in to continue
      </Link>
    </p>
    <p className="muted small">Changed your mind? Close this page: your account stays as it is.</p>
  </PublicCard>
)

export const ConfirmDeletionPage = () => {
  const [params] = useSearchParams()
  const location = useLocation()
  const navigate = useNavigate()
  const token = params.get('token')
  const { data: signedIn, isLoading, isError, isFetching, error, refetch } = useGetSessionQuery()
  const [deleteUser, { isLoading: deleting }] = useDeleteUserMutation()
  const forget = useForgetSession()
  const [errors, setErrors] = useState<FormErrors<never>>(noErrors())
  const [linkRejected, setLinkRejected] = useState(false)

  if (!token || params.has('error') || linkRejected) return <LinkNoLongerValid signedIn={Boolean(signedIn)} />
  if (isLoading) return <Loading />
  if (isError && !signedIn) {
    return (
      <PublicCard title="Delete your account" documentTitle="Confirm deletion">
        <ErrorState message={messageFor(error)} onRetry={() => void refetch()} retrying={isFetching} />
      </PublicCard>
    )
  }
  if (!signedIn) return <SignInFirst back={`${location.pathname}${location.search}`} />

  const onSubmit = async () => {
    if (deleting) return
    setErrors(noErrors())
    try {
      await deleteUser({ token }).unwrap()
      navigate(DELETED_CALLBACK, { replace: true })
      forget()
    } catch (failure) {
      if (isApiError(failure) && (failure.code === 'INVALID_TOKEN' || failure.code === 'TOKEN_EXPIRED')) {
        setLinkRejected(true)
        return
      }
      setErrors(placeError<never>(failure, {}))
    }
  }

  return (
    <PublicCard
      title="Delete your account for good?"
      documentTitle="Confirm deletion"
      after={
        <p>
          <Link to="/account">Keep my account</Link>
        </p>
      }
    >
      <p>
        You are signed in as <strong className="break-anywhere">{signedIn.user.email}</strong>.
      </p>
      <Notice tone="warning" live="none" title="This cannot be undone.">
        Deleting your account removes your profile, sessions and history, and signs out every device. You will
        not be able to sign in with this address again unless you create a new account.
      </Notice>
      <Form label="Confirm deletion" onSubmit={onSubmit} errors={errors}>
        <FormActions>
          <SubmitButton pending={deleting} pendingLabel="Deleting…" variant="danger">
            Delete my account
          </SubmitButton>
        </FormActions>
      </Form>
    </PublicCard>
  )
}
