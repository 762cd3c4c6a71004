import { useState } from 'react'
import { Avatar } from '../../ui/Avatar.js'
import { Badge } from '../../ui/Badge.js'
import { Button } from '../../ui/Button.js'
import { SelectField } from '../../ui/Field.js'
import { Notice } from '../../ui/Notice.js'
import { activeOrganizationIdOf, activeTeamIdOf, type OrganizationContext } from './organization-context.js'
import { organizationMessageFor } from './organization-messages.js'
import {
  useAddTeamMemberMutation,
  useRemoveTeamMemberMutation,
  useSetActiveTeamMutation,
} from './organizations.api.js'
import { may, type TeamWithMembers } from './viewer.api.js'

const NOBODY = ''

/** Whom to add: nobody is chosen until the reader picks someone, so no one is added by accident. */
const AddToTeam = ({ team, context }: { team: TeamWithMembers; context: OrganizationContext }) => {
  const [add, adding] = useAddTeamMemberMutation()
  const [candidate, setCandidate] = useState(NOBODY)
  const [missing, setMissing] = useState(false)
  const inTeam = new Set(team.members.map((teamMember) => teamMember.userId))
  const outside = context.organization.members.filter((member) => !inTeam.has(member.userId))
  if (outside.length === 0) return null
  const chosen = outside.some((member) => member.userId === candidate) ? candidate : NOBODY
  const onAdd = async () => {
    setMissing(chosen === NOBODY)
    if (chosen === NOBODY) return
    const result = await add({ teamId: team.id, userId: chosen })
    if (!('error' in result)) setCandidate(NOBODY)
  }
  return (
    <>
      <div className="inline-form">
        <SelectField
          label={`Add to ${team.name}`}
          name="userId"
          value={chosen}
          onChange={(value) => {
            setCandidate(value)
            setMissing(false)
          }}
          error={missing ? 'Choose whom to add.' : undefined}
          options={[
            { value: NOBODY, label: 'Choose a member…' },
            ...outside.map((member) => ({
              value: member.userId,
              label: `${member.user.name} (${member.user.email})`,
            })),
          ]}
        />
        <Button pending={adding.isLoading} pendingLabel="Adding…" onClick={() => void onAdd()}>
          Add to team
        </Button>
      </div>
      {adding.error ? <Notice tone="error">{organizationMessageFor(adding.error)}</Notice> : null}
    </>
  )
}

/** A team's people, from the roster; those who may update teams take people out and add them. */
export const TeamMembers = ({ team, context }: { team: TeamWithMembers; context: OrganizationContext }) => {
  const [remove, removing] = useRemoveTeamMemberMutation()
  const manage = may(context, 'team:update')
  const inTeam = new Set(team.members.map((teamMember) => teamMember.userId))
  const people = context.organization.members.filter((member) => inTeam.has(member.userId))
  return (
    <div className="team-members">
      {people.length === 0 ? (
        <p className="empty-state">Nobody is in this team yet.</p>
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
      {manage ? <AddToTeam team={team} context={context} /> : null}
      {removing.error ? <Notice tone="error">{organizationMessageFor(removing.error)}</Notice> : null}
    </div>
  )
}

/**
 * The session's active team: shown on the team, and offered to the reader's own teams of the
 * active organization (set-active-team works there only).
 */
export const ActiveTeam = ({ team, context }: { team: TeamWithMembers; context: OrganizationContext }) => {
  const [setActiveTeam, { isLoading, error }] = useSetActiveTeamMutation()
  const active = activeTeamIdOf(context) === team.id
  const inActiveOrganization = activeOrganizationIdOf(context) === context.organization.id
  const mine = team.members.some((teamMember) => teamMember.userId === context.user.id)
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
