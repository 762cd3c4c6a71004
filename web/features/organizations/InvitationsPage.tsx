import { useId, useRef, useState } from 'react'
import { Button, SubmitButton } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { SelectField, TextField } from '../../ui/Field.js'
import { Form, FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { Time } from '../../ui/Time.js'
import { type FormErrors, fieldErrors, noErrors } from '../errors/form-errors.js'
import { checkEmail } from '../forms/checks.js'
import { EMAIL_MAX } from '../forms/limits.js'
import { DraftRestored, useDraft } from '../session/use-draft.js'
import { type OrganizationContext, useOrganization } from './organization-context.js'
import { organizationMessageFor, placeOrganizationError } from './organization-messages.js'
import { type Invitation, useCancelInvitationMutation, useInviteMemberMutation } from './organizations.api.js'
import { assignableRoles, type BuiltInRole, can, ROLE_HINTS, ROLE_LABELS, roleLabel } from './roles.js'

type Field = 'email' | 'role' | 'teamId'

const FIELD_OF_CODE: Partial<Record<string, Field>> = {
  INVALID_EMAIL: 'email',
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: 'email',
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: 'email',
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE: 'role',
  TEAM_NOT_FOUND: 'teamId',
  TEAM_MEMBER_LIMIT_REACHED: 'teamId',
}

const NO_TEAM = ''

const InviteForm = ({ context }: { context: OrganizationContext }) => {
  const { organization } = context
  const roles = assignableRoles(context.me?.role ?? '')
  const teams = organization.teams ?? []
  const [invite, { isLoading }] = useInviteMemberMutation()
  const draft = useDraft<Record<Field, string>>(`invitation:${organization.id}`, context.user.id)
  const [email, setEmail] = useState(draft.kept?.email ?? '')
  const [role, setRole] = useState<BuiltInRole>(roles.find((value) => value === draft.kept?.role) ?? 'member')
  const [teamId, setTeamId] = useState(
    teams.some((team) => team.id === draft.kept?.teamId) ? (draft.kept?.teamId ?? NO_TEAM) : NO_TEAM,
  )
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [sent, setSent] = useState<string | null>(null)

  const onSubmit = async () => {
    if (isLoading) return
    setSent(null)
    const problems = fieldErrors<Field>({
      email: email.trim() === '' ? 'Enter the address to send the invitation to.' : checkEmail(email),
    })
    setErrors(problems ?? noErrors())
    if (problems) return
    const address = email.trim()
    try {
      await invite({
        organizationId: organization.id,
        email: address,
        role,
        ...(teamId === NO_TEAM ? {} : { teamId }),
      }).unwrap()
      draft.saved()
      setEmail('')
      setSent(`Invitation sent to ${address}. It works for 48 hours.`)
    } catch (error) {
      draft.keepIfSessionEnded(error, { email, role, teamId })
      setErrors(placeOrganizationError<Field>(error, FIELD_OF_CODE, ['email', 'role', 'teamId']))
    }
  }

  return (
    <Card
      title="Invite someone"
      description="They get a mail with a link to accept. The link works for 48 hours."
    >
      <Form label="Invite someone" onSubmit={onSubmit} errors={errors}>
        <DraftRestored draft={draft} />
        <TextField
          label="Email address"
          name="email"
          type="email"
          autoComplete="off"
          maxLength={EMAIL_MAX}
          value={email}
          onChange={setEmail}
          error={errors.fields.email}
        />
        <SelectField<BuiltInRole>
          label="Role"
          name="role"
          value={role}
          onChange={setRole}
          options={roles.map((value) => ({ value, label: ROLE_LABELS[value] }))}
          hint={ROLE_HINTS[role]}
          error={errors.fields.role}
        />
        {teams.length > 0 ? (
          <SelectField
            label="Team"
            name="teamId"
            value={teamId}
            onChange={setTeamId}
            options={[
              { value: NO_TEAM, label: 'No team' },
              ...teams.map((team) => ({ value: team.id, label: team.name })),
            ]}
            hint="They join this team as they accept."
            error={errors.fields.teamId}
          />
        ) : null}
        <FormActions>
          <SubmitButton pending={isLoading} pendingLabel="Sending…">
            Send invitation
          </SubmitButton>
        </FormActions>
        <Notice tone="success">{sent}</Notice>
      </Form>
    </Card>
  )
}

const teamNames = (invitation: Invitation, context: OrganizationContext): string | null => {
  if (!invitation.teamId) return null
  const ids = invitation.teamId.split(',').map((id) => id.trim())
  const names = ids.map(
    (id) => context.organization.teams?.find((team) => team.id === id)?.name ?? 'a removed team',
  )
  return names.join(', ')
}

type RowProps = { invitation: Invitation; context: OrganizationContext; onGone: () => void }

const InvitationRow = ({ invitation, context, onGone }: RowProps) => {
  const labelId = useId()
  const [cancel, { isLoading, error }] = useCancelInvitationMutation()
  const teams = teamNames(invitation, context)
  const onCancel = async () => {
    const result = await cancel({ organizationId: context.organization.id, invitationId: invitation.id })
    if (!('error' in result)) onGone()
  }
  return (
    <li className="org-row">
      <div className="org-row-body">
        <p id={labelId} className="org-row-name">
          {invitation.email}
        </p>
        <p className="muted small">
          {roleLabel(invitation.role)}
          {teams ? ` · ${teams}` : ''} · expires <Time value={invitation.expiresAt} />
        </p>
        {error ? <Notice tone="error">{organizationMessageFor(error)}</Notice> : null}
      </div>
      {can(context.me?.role, 'invitation:cancel') ? (
        <div className="org-row-action">
          <Button
            size="small"
            pending={isLoading}
            pendingLabel="Cancelling…"
            aria-describedby={labelId}
            onClick={() => void onCancel()}
          >
            Cancel invitation
          </Button>
        </div>
      ) : null}
    </li>
  )
}

const Pending = ({ context }: { context: OrganizationContext }) => {
  const heading = useRef<HTMLHeadingElement>(null)
  const now = Date.now()
  const pending = context.organization.invitations.filter(
    (invitation) => invitation.status === 'pending' && new Date(invitation.expiresAt).getTime() > now,
  )
  return (
    <Card title="Pending invitations" headingRef={heading}>
      {pending.length === 0 ? (
        <p className="empty-state">No invitation is waiting for an answer.</p>
      ) : (
        <ul className="rows" aria-label="Pending invitations">
          {pending.map((invitation) => (
            <InvitationRow
              key={invitation.id}
              invitation={invitation}
              context={context}
              onGone={() => requestAnimationFrame(() => heading.current?.focus())}
            />
          ))}
        </ul>
      )}
    </Card>
  )
}

export const InvitationsPage = () => {
  const context = useOrganization()
  return (
    <>
      <PageHeading
        title="Invitations"
        documentTitle={`Invitations · ${context.organization.name}`}
        description="Who has been asked to join, and has not answered yet."
      />
      {can(context.me?.role, 'invitation:create') ? (
        <InviteForm context={context} />
      ) : (
        <p className="muted">Only owners and admins can invite people.</p>
      )}
      <Pending context={context} />
    </>
  )
}
