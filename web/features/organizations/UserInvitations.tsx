import { useState } from 'react'
import { useNavigate } from 'react-router'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { Notice } from '../../ui/Notice.js'
import { Time } from '../../ui/Time.js'
import { isApiError } from '../errors/api-error.js'
import { organizationMessageFor } from './organization-messages.js'
import {
  type UserInvitation,
  useAcceptInvitationMutation,
  useListUserInvitationsQuery,
  useRejectInvitationMutation,
} from './organizations.api.js'
import { roleLabel } from './roles.js'
import { closing } from './sentence.js'

/// The invitations waiting for the signed-in person (list-user-invitations), answered in place.
/// Only a verified address is shown its invitations: anyone may type any address at sign-up.

const InvitationRow = ({
  invitation,
  onDeclined,
}: {
  invitation: UserInvitation
  onDeclined: (organizationName: string) => void
}) => {
  const navigate = useNavigate()
  const [accept, accepting] = useAcceptInvitationMutation()
  const [reject, rejecting] = useRejectInvitationMutation()
  const busy = accepting.isLoading || rejecting.isLoading
  const refusal = accepting.error ?? rejecting.error
  const name = invitation.organizationName

  const onAccept = async () => {
    if (busy) return
    const result = await accept({ invitationId: invitation.id })
    if ('error' in result) return
    navigate(`/account/organizations/${invitation.organizationId}`, {
      state: { notice: `You joined ${closing(name)} It is now your active organization.` },
    })
  }
  const onDecline = async () => {
    if (busy) return
    const result = await reject({ invitationId: invitation.id })
    if (!('error' in result)) onDeclined(name)
  }

  return (
    <li className="org-row">
      <div className="org-row-body">
        <p className="org-row-name">
          <strong>{name}</strong> as {roleLabel(invitation.role)}
        </p>
        <p className="muted small">
          Until <Time value={invitation.expiresAt} />
        </p>
        {refusal ? <Notice tone="error">{organizationMessageFor(refusal)}</Notice> : null}
      </div>
      <div className="org-row-action">
        <Button
          size="small"
          variant="primary"
          pending={accepting.isLoading}
          pendingLabel="Joining…"
          onClick={() => void onAccept()}
        >
          Accept<span className="visually-hidden"> the invitation to {name}</span>
        </Button>
        <Button
          size="small"
          pending={rejecting.isLoading}
          pendingLabel="Declining…"
          onClick={() => void onDecline()}
        >
          Decline<span className="visually-hidden"> the invitation to {name}</span>
        </Button>
      </div>
    </li>
  )
}

export const UserInvitations = () => {
  const { data, error } = useListUserInvitationsQuery()
  const [declined, setDeclined] = useState<string | null>(null)
  if (isApiError(error) && error.code === 'EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION')
    return (
      <Card title="Invitations for you">
        <p className="muted">Verify your email address to see the invitations sent to it.</p>
      </Card>
    )
  // Nothing waiting (or nothing to tell): the section stays out of the way.
  if (!data || (data.length === 0 && !declined)) return null
  return (
    <Card title="Invitations for you" description="Organizations that invited your address to join them.">
      <Notice tone="success">{declined && `You declined the invitation to ${closing(declined)}`}</Notice>
      {data.length > 0 ? (
        <ul className="rows" aria-label="Invitations for you">
          {data.map((invitation) => (
            <InvitationRow key={invitation.id} invitation={invitation} onDeclined={setDeclined} />
          ))}
        </ul>
      ) : null}
    </Card>
  )
}
