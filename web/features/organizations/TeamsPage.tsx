import { type RefObject, useRef, useState } from 'react'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { Confirm } from '../../ui/Confirm.js'
import { ErrorState } from '../../ui/ErrorState.js'
import { Notice } from '../../ui/Notice.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { Loading } from '../../ui/Skeleton.js'
import { type OrganizationContext, useOrganization } from './organization-context.js'
import { organizationMessageFor } from './organization-messages.js'
import { useCreateTeamMutation, useRemoveTeamMutation, useUpdateTeamMutation } from './organizations.api.js'
import { ActiveTeam, TeamMembers } from './TeamMembers.js'
import { TeamNameForm } from './TeamNameForm.js'
import { may, type TeamWithMembers, useGetTeamRosterQuery } from './viewer.api.js'

const TeamCard = ({
  team,
  context,
  onGone,
}: {
  team: TeamWithMembers
  context: OrganizationContext
  onGone: () => void
}) => {
  const [renaming, setRenaming] = useState(false)
  const [asking, setAsking] = useState(false)
  const [update] = useUpdateTeamMutation()
  const [removeTeam, removal] = useRemoveTeamMutation()
  const renameButton = useRef<HTMLButtonElement>(null)
  const removeButton = useRef<HTMLButtonElement>(null)
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
          {may(context, 'team:update') ? (
            <Button ref={renameButton} size="small" onClick={() => setRenaming(true)}>
              Rename<span className="visually-hidden"> {team.name}</span>
            </Button>
          ) : null}
          {may(context, 'team:delete') ? (
            <Button ref={removeButton} size="small" variant="danger-outline" onClick={() => setAsking(true)}>
              Remove team<span className="visually-hidden"> {team.name}</span>
            </Button>
          ) : null}
        </div>
      ) : null}
    </Card>
  )
}

/** The teams a reader sees: every team for those who may update teams, else their own. */
const Teams = ({ context }: { context: OrganizationContext }) => {
  const { organization } = context
  const roster = useGetTeamRosterQuery({ organizationId: organization.id })
  const heading = useRef<HTMLHeadingElement>(null)
  if (roster.isLoading) return <Loading label="Loading the teams…" />
  if (!roster.data)
    return (
      <ErrorState
        message={organizationMessageFor(roster.error)}
        onRetry={() => void roster.refetch()}
        retrying={roster.isFetching}
      />
    )
  const teams = roster.data
  const every = may(context, 'team:update')
  const count = teams.length === 1 ? 'One team' : `${teams.length === 0 ? 'No' : teams.length} teams`
  return (
    <section aria-labelledby="teams-heading">
      <h2 id="teams-heading" ref={heading} tabIndex={-1} className="section-heading">
        {every ? count : `Your teams: ${teams.length}`}
      </h2>
      {teams.length === 0 ? (
        <p className="empty-state">
          {every
            ? 'This organization has no team yet.'
            : `You are not in any team of ${organization.name} yet.`}
        </p>
      ) : null}
      {teams.map((team) => (
        <TeamCard
          key={team.id}
          team={team}
          context={context}
          onGone={() => requestAnimationFrame(() => heading.current?.focus())}
        />
      ))}
    </section>
  )
}

export const TeamsPage = () => {
  const context = useOrganization()
  const { organization } = context
  const [create] = useCreateTeamMutation()
  const [created, setCreated] = useState<string | null>(null)
  return (
    <>
      <PageHeading
        title="Teams"
        documentTitle={`Teams · ${organization.name}`}
        description="Groups of members inside the organization."
      />
      {may(context, 'team:create') ? (
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
      <Teams context={context} />
    </>
  )
}
