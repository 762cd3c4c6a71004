import { type RefObject, useRef, useState } from 'react'
import { Avatar } from '../../ui/Avatar.js'
import { Badge } from '../../ui/Badge.js'
import { Button, SubmitButton } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { Confirm } from '../../ui/Confirm.js'
import { SelectField, TextField } from '../../ui/Field.js'
import { Form, FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { Loading } from '../../ui/Skeleton.js'
import { type FormErrors, fieldErrors, noErrors } from '../errors/form-errors.js'
import { checkRequired } from '../forms/checks.js'
import {
  activeOrganizationIdOf,
  activeTeamIdOf,
  type OrganizationContext,
  useOrganization,
} from './organization-context.js'
import { organizationMessageFor, placeOrganizationError } from './organization-messages.js'
import {
  type Team,
  useAddTeamMemberMutation,
  useCreateTeamMutation,
  useListTeamMembersQuery,
  useRemoveTeamMemberMutation,
  useRemoveTeamMutation,
  useSetActiveTeamMutation,
  useUpdateTeamMutation,
} from './organizations.api.js'
import { can } from './roles.js'

export const TEAM_NAME_MAX = 100

type Field = 'name'

const FIELD_OF_CODE: Partial<Record<string, Field>> = { TEAM_ALREADY_EXISTS: 'name' }

/** One form for both: a new team's name, or a new name for a team. */
const TeamNameForm = ({
  label,
  submitLabel,
  initial = '',
  onSave,
  onCancel,
}: {
  label: string
  submitLabel: string
  initial?: string
  onSave: (name: string) => Promise<unknown>
  onCancel?: () => void
}) => {
  const [name, setName] = useState(initial)
  const [busy, setBusy] = useState(false)
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const onSubmit = async () => {
    if (busy) return
    const problems = fieldErrors<Field>({ name: checkRequired(name, 'a name for the team') })
    setErrors(problems ?? noErrors())
    if (problems) return
    setBusy(true)
    try {
      await onSave(name.trim())
      setName(initial === '' ? '' : name.trim())
    } catch (error) {
      setErrors(placeOrganizationError<Field>(error, FIELD_OF_CODE, ['name']))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Form label={label} onSubmit={onSubmit} errors={errors}>
      <div className="inline-form">
        <TextField
          label="Team name"
          name="name"
          maxLength={TEAM_NAME_MAX}
          value={name}
          onChange={setName}
          error={errors.fields.name}
        />
        <FormActions>
          <SubmitButton pending={busy} pendingLabel="Saving…">
            {submitLabel}
          </SubmitButton>
          {onCancel ? <Button onClick={onCancel}>Cancel</Button> : null}
        </FormActions>
      </div>
    </Form>
  )
}

const TeamMembers = ({ team, context }: { team: Team; context: OrganizationContext }) => {
  const { data, isLoading, error } = useListTeamMembersQuery({ teamId: team.id })
  const [add, adding] = useAddTeamMemberMutation()
  const [remove, removing] = useRemoveTeamMemberMutation()
  const [candidate, setCandidate] = useState('')
  const manage = can(context.me?.role, 'team:update')
  if (isLoading) return <Loading label={`Loading the members of ${team.name}…`} />
  if (!data) return <Notice tone="error">{organizationMessageFor(error)}</Notice>

  const inTeam = new Set(data.map((teamMember) => teamMember.userId))
  const members = context.organization.members
  const people = members.filter((member) => inTeam.has(member.userId))
  const outside = members.filter((member) => !inTeam.has(member.userId))
  const chosen = outside.some((member) => member.userId === candidate)
    ? candidate
    : (outside[0]?.userId ?? '')
  const refusal = adding.error ?? removing.error

  return (
    <div className="team-members">
      {people.length === 0 ? (
        <p className="muted small">Nobody is in this team yet.</p>
      ) : (
        <ul className="rows" aria-label={`Members of ${team.name}`}>
          {people.map((member) => (
            <li key={member.userId} className="org-row">
              <Avatar
                user={{ name: member.user.name, email: member.user.email, image: member.user.image ?? null }}
                size={28}
              />
              <div className="org-row-body">
                <p>{member.user.name}</p>
                <p className="muted small">{member.user.email}</p>
              </div>
              {manage ? (
                <div className="org-row-action">
                  <Button
                    size="small"
                    pending={removing.isLoading && removing.originalArgs?.userId === member.userId}
                    pendingLabel="Taking out…"
                    onClick={() => void remove({ teamId: team.id, userId: member.userId })}
                  >
                    Take out of team<span className="visually-hidden"> {member.user.name}</span>
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {manage && outside.length > 0 ? (
        <div className="inline-form">
          <SelectField
            label={`Add to ${team.name}`}
            name="userId"
            value={chosen}
            onChange={setCandidate}
            options={outside.map((member) => ({
              value: member.userId,
              label: `${member.user.name} (${member.user.email})`,
            }))}
          />
          <Button
            pending={adding.isLoading}
            pendingLabel="Adding…"
            onClick={() => void add({ teamId: team.id, userId: chosen })}
          >
            Add to team
          </Button>
        </div>
      ) : null}
      {refusal ? <Notice tone="error">{organizationMessageFor(refusal)}</Notice> : null}
    </div>
  )
}

/**
 * The session's active team: shown on the team, and offered to the reader's own teams of the
 * active organization (set-active-team works there only).
 */
const ActiveTeam = ({ team, context }: { team: Team; context: OrganizationContext }) => {
  const [setActiveTeam, { isLoading, error }] = useSetActiveTeamMutation()
  const { data } = useListTeamMembersQuery({ teamId: team.id })
  const active = activeTeamIdOf(context) === team.id
  const inActiveOrganization = activeOrganizationIdOf(context) === context.organization.id
  const mine = data?.some((teamMember) => teamMember.userId === context.user.id) ?? false
  const offered = !active && inActiveOrganization && mine
  if (!active && !offered && !error) return null
  return (
    <div className="team-active">
      {active ? <Badge tone="success">Your active team</Badge> : null}
      {offered ? (
        <Button
          size="small"
          pending={isLoading}
          pendingLabel="Switching…"
          onClick={() => void setActiveTeam({ teamId: team.id })}
        >
          Make active team<span className="visually-hidden"> {team.name}</span>
        </Button>
      ) : null}
      {error ? <Notice tone="error">{organizationMessageFor(error)}</Notice> : null}
    </div>
  )
}

const TeamCard = ({
  team,
  context,
  onGone,
}: {
  team: Team
  context: OrganizationContext
  onGone: () => void
}) => {
  const [renaming, setRenaming] = useState(false)
  const [asking, setAsking] = useState(false)
  const [update] = useUpdateTeamMutation()
  const [removeTeam, removal] = useRemoveTeamMutation()
  const renameButton = useRef<HTMLButtonElement>(null)
  const removeButton = useRef<HTMLButtonElement>(null)
  const role = context.me?.role
  const organizationId = context.organization.id

  const back = (button: RefObject<HTMLButtonElement | null>) =>
    requestAnimationFrame(() => button.current?.focus())

  const remove = async () => {
    const result = await removeTeam({ organizationId, teamId: team.id })
    if (!('error' in result)) onGone()
  }

  return (
    <Card title={team.name} headingLevel={3} className="team-card">
      {renaming ? (
        <TeamNameForm
          label={`Rename ${team.name}`}
          submitLabel="Rename"
          initial={team.name}
          onSave={async (name) => {
            await update({ organizationId, teamId: team.id, name }).unwrap()
            setRenaming(false)
            back(renameButton)
          }}
          onCancel={() => {
            setRenaming(false)
            back(renameButton)
          }}
        />
      ) : null}
      <ActiveTeam team={team} context={context} />
      <TeamMembers team={team} context={context} />
      {asking ? (
        <Confirm
          question={`Remove the team ${team.name}?`}
          consequence="Its people stay in the organization."
          confirmLabel={`Remove ${team.name}`}
          pendingLabel="Removing…"
          pending={removal.isLoading}
          onConfirm={() => void remove()}
          onCancel={() => {
            setAsking(false)
            removal.reset()
            back(removeButton)
          }}
        />
      ) : null}
      {removal.error ? <Notice tone="error">{organizationMessageFor(removal.error)}</Notice> : null}
      {!renaming && !asking ? (
        <div className="form-actions">
          {can(role, 'team:update') ? (
            <Button ref={renameButton} size="small" onClick={() => setRenaming(true)}>
              Rename<span className="visually-hidden"> {team.name}</span>
            </Button>
          ) : null}
          {can(role, 'team:delete') ? (
            <Button ref={removeButton} size="small" variant="danger-outline" onClick={() => setAsking(true)}>
              Remove team<span className="visually-hidden"> {team.name}</span>
            </Button>
          ) : null}
        </div>
      ) : null}
    </Card>
  )
}

export const TeamsPage = () => {
  const context = useOrganization()
  const { organization } = context
  const [create] = useCreateTeamMutation()
  const [created, setCreated] = useState<string | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const teams = organization.teams ?? []
  return (
    <>
      <PageHeading
        title="Teams"
        documentTitle={`Teams · ${organization.name}`}
        description="Groups of members inside the organization."
      />
      {can(context.me?.role, 'team:create') ? (
        <Card title="Create a team">
          <TeamNameForm
            label="Create a team"
            submitLabel="Create team"
            onSave={async (name) => {
              setCreated(null)
              await create({ organizationId: organization.id, name }).unwrap()
              setCreated(`The team ${name} is created.`)
            }}
          />
          <Notice tone="success">{created}</Notice>
        </Card>
      ) : null}
      <section aria-labelledby="teams-heading">
        <h2 id="teams-heading" ref={heading} tabIndex={-1} className="section-heading">
          {teams.length === 1 ? 'One team' : `${teams.length} teams`}
        </h2>
        {teams.length === 0 ? <p className="empty-state">This organization has no team yet.</p> : null}
        {teams.map((team) => (
          <TeamCard
            key={team.id}
            team={team}
            context={context}
            onGone={() => requestAnimationFrame(() => heading.current?.focus())}
          />
        ))}
      </section>
    </>
  )
}
