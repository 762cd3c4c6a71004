import { useState } from 'react'
import { Link, useLocation, useNavigate, useParams } from 'react-router'
import { Button } from '../../ui/Button.js'
import { ErrorState } from '../../ui/ErrorState.js'
import { Notice } from '../../ui/Notice.js'
import { PublicCard } from '../../ui/PublicCard.js'
import { Loading } from '../../ui/Skeleton.js'
import { Time } from '../../ui/Time.js'
import { ADD_ACCOUNT_PATH } from '../auth/navigation-state.js'
import { isApiError } from '../errors/api-error.js'
import { useGetSessionQuery } from '../session/session.api.js'
import { organizationMessageFor } from './organization-messages.js'
import {
  type InvitationDetails,
  useAcceptInvitationMutation,
  useGetInvitationPreviewQuery,
  useGetInvitationQuery,
  useRejectInvitationMutation,
} from './organizations.api.js'
import { roleLabel } from './roles.js'
import { closing } from './sentence.js'

/// Where an invitation mail's link lands (/accept-invitation/:id). Signed out: sign in or create an
/// account first, then come back here. Signed in: who invited you to what, then accept or decline.

const NoLongerValid = ({ reason }: { reason: string }) => (
  <PublicCard
    title="This invitation is no longer valid"
    documentTitle="Invitation not valid"
    after={
      <p>
        <Link to="/account/organizations">Go to your organizations</Link>
      </p>
    }
  >
    <Notice tone="error">{reason}</Notice>
    <p>Ask the person who invited you to send a new invitation.</p>
  </PublicCard>
)

/**
 * Signed out: the invitation needs an account, with the invited address when the link tells it.
 * Who invites to what comes from the preview, which answers the holder of the link without a
 * session; an invitation that can no longer be accepted says so before anyone signs in for it.
 */
const SignInFirst = ({ id, back, email }: { id: string; back: string; email: string | null }) => {
  const { data: preview, error, isLoading } = useGetInvitationPreviewQuery({ id })
  const state = { from: back, ...(email ? { email } : {}) }
  if (isLoading) return <Loading label="Loading the invitation…" />
  if (isApiError(error) && error.code === 'INVITATION_NOT_FOUND')
    return <NoLongerValid reason={organizationMessageFor(error)} />
  return (
    <PublicCard
      title={preview ? `Join ${preview.organizationName}?` : 'You have been invited to an organization'}
      documentTitle="Invitation"
      description="Sign in to see the invitation and answer it."
    >
      {preview ? (
        <p>
          <strong>{preview.inviterName}</strong> invited you to join{' '}
          <strong>{preview.organizationName}</strong>. The invitation works until{' '}
          <Time value={preview.expiresAt} />.
        </p>
      ) : null}
      <p>
        {email ? (
          <>
            The invitation was sent to <strong className="break-anywhere">{email}</strong>. Sign in with that
            address, or create an account with it if you do not have one yet.
          </>
        ) : (
          'Sign in with the address the invitation was sent to, or create an account with it if you do not have one yet.'
        )}{' '}
        We then bring you back here to accept or decline it.
      </p>
      <div className="form-actions">
        <Link to="/sign-in" state={state} className="button button-primary">
          Sign in
        </Link>
        <Link to="/sign-up" state={state} className="button button-secondary">
          Create an account
        </Link>
      </div>
    </PublicCard>
  )
}

const Answer = ({ invitation, signedInAs }: { invitation: InvitationDetails; signedInAs: string }) => {
  const navigate = useNavigate()
  const [accept, accepting] = useAcceptInvitationMutation()
  // The inviter by name, as the signed-out page shows them (the preview), the address beside it.
  const inviterName = useGetInvitationPreviewQuery({ id: invitation.id }).data?.inviterName
  const [reject, rejecting] = useRejectInvitationMutation()
  const [declined, setDeclined] = useState(false)
  const busy = accepting.isLoading || rejecting.isLoading
  const refusal = accepting.error ?? rejecting.error

  if (declined)
    return (
      <PublicCard
        title="Invitation declined"
        after={
          <p>
            <Link to="/account">Go to your account</Link>
          </p>
        }
      >
        <Notice tone="success">{`You declined the invitation to ${closing(invitation.organizationName)}`}</Notice>
      </PublicCard>
    )

  const onAccept = async () => {
    if (busy) return
    const result = await accept({ invitationId: invitation.id })
    if ('error' in result) return
    navigate(`/account/organizations/${invitation.organizationId}`, {
      replace: true,
      state: {
        notice: `You joined ${closing(invitation.organizationName)} It is now your active organization.`,
      },
    })
  }
  const onDecline = async () => {
    if (busy) return
    const result = await reject({ invitationId: invitation.id })
    if (!('error' in result)) setDeclined(true)
  }

  return (
    <PublicCard
      title={`Join ${invitation.organizationName}?`}
      documentTitle="Invitation"
      after={
        <p>
          <Link to="/account">Decide later</Link>
        </p>
      }
    >
      <p>
        <strong className="break-anywhere">{inviterName ?? invitation.inviterEmail}</strong>
        {inviterName ? ` (${invitation.inviterEmail})` : null} invited you to join{' '}
        <strong>{invitation.organizationName}</strong> as <strong>{roleLabel(invitation.role)}</strong>.
      </p>
      <p className="muted small">
        Sent to {invitation.email}; you are signed in as {signedInAs}. The invitation works until{' '}
        <Time value={invitation.expiresAt} />.
      </p>
      {refusal ? <Notice tone="error">{organizationMessageFor(refusal)}</Notice> : null}
      <div className="form-actions">
        <Button
          variant="primary"
          pending={accepting.isLoading}
          pendingLabel="Joining…"
          onClick={() => void onAccept()}
        >
          Accept invitation
        </Button>
        <Button pending={rejecting.isLoading} pendingLabel="Declining…" onClick={() => void onDecline()}>
          Decline
        </Button>
      </div>
    </PublicCard>
  )
}

const NOT_FOUND_CODES = [
  'INVITATION_NOT_FOUND',
  'ORGANIZATION_NOT_FOUND',
  'INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION',
]

const SignedInView = ({ id, email }: { id: string; email: string }) => {
  const location = useLocation()
  const { data, isLoading, error, refetch, isFetching } = useGetInvitationQuery({ id })
  if (isLoading) return <Loading label="Loading the invitation…" />
  if (data) return <Answer invitation={data} signedInAs={email} />
  if (isApiError(error) && error.code === 'YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION')
    return (
      <PublicCard title="This invitation is for someone else" documentTitle="Invitation">
        <Notice tone="warning">{`You are signed in as ${email}, and the invitation was sent to another address.`}</Notice>
        <p>Sign in with the address the invitation was sent to; you stay signed in to this account too.</p>
        <p>
          <Link to={ADD_ACCOUNT_PATH} state={{ from: location.pathname }} className="button button-primary">
            Sign in with another account
          </Link>
        </p>
      </PublicCard>
    )
  if (
    isApiError(error) &&
    (NOT_FOUND_CODES.includes(error.code) || error.status === 400 || error.status === 404)
  ) {
    // better-auth answers an unknown, answered or expired invitation 400 'Invitation not found!'.
    const code = NOT_FOUND_CODES.includes(error.code) ? error.code : 'INVITATION_NOT_FOUND'
    return <NoLongerValid reason={organizationMessageFor({ ...error, code })} />
  }
  return (
    <PublicCard title="Invitation" documentTitle="Invitation">
      <ErrorState
        message={organizationMessageFor(error)}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    </PublicCard>
  )
}

export const AcceptInvitationPage = () => {
  const { id = '' } = useParams()
  const location = useLocation()
  const { data: signedIn, isLoading, isError, error, refetch, isFetching } = useGetSessionQuery()
  if (isLoading) return <Loading label="Loading the invitation…" />
  if (isError && !signedIn)
    return (
      <PublicCard title="Invitation" documentTitle="Invitation">
        <ErrorState
          message={organizationMessageFor(error)}
          onRetry={() => void refetch()}
          retrying={isFetching}
        />
      </PublicCard>
    )
  if (!signedIn) {
    // The invited address, when the link carries it (?email=), saves typing it.
    const email = new URLSearchParams(location.search).get('email')
    return <SignInFirst id={id} back={location.pathname} email={email} />
  }
  return <SignedInView key={signedIn.user.id} id={id} email={signedIn.user.email} />
}
