/// A SCIM group's team follows it in the group's own append. The organization commands the group's
/// events cause (create the team, rename it, add and remove its members) are decided one after
/// another on the organization as its stream has it, as ONE decision of the organization's stream,
/// and `handle.together` appends it with the group's events. So the team side is never checked on one
/// version of the organization and written on a later one: a concurrent change of the organization
/// (a member leaving, the team filling up) makes both streams decide again, and no member is skipped.
///
/// A refusal there (teams turned off, the team limit, the team member limit, a member no longer in
/// the organization) refuses the whole SCIM call, with nothing written. What a team may drift from on
/// its own (an administrator removed the team, or a member from it) is tolerated.

import type { OrganizationCommand } from '../../domain/organization/organization.commands.js'
import {
  type Organization,
  type OrganizationDecider,
  type OrganizationEvent,
  organizationClaims,
  organizationStream,
} from '../../domain/organization/organization.js'
import {
  type ScimGroupCommand,
  type ScimGroupEvent,
  scimGroupClaims,
  scimGroupDecider,
  scimGroupStream,
} from '../../domain/scim/scim-group.js'
import { type Decider, fold } from '../../domain/shared/decider.js'
import { isDomainError } from '../../domain/shared/errors.js'
import type { EventMetadata } from '../../domain/shared/metadata.js'
import { newId } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'
import { handlePart } from '../shared/handle.js'
import { oneAtATime, retryingConcurrency } from './one-at-a-time.js'

const DRIFT = new Set(['USER_IS_NOT_A_MEMBER_OF_THE_TEAM', 'TEAM_NOT_FOUND'])

/** The organization commands a group's events cause, in order; `newId` names each team member. */
export const teamCommandsOf = (
  events: readonly ScimGroupEvent[],
  now: string,
  newId: () => string,
): OrganizationCommand[] =>
  events.flatMap((event): OrganizationCommand[] => {
    const acting = { actorUserId: null, teamId: event.data.groupId }
    const add = (userId: string): OrganizationCommand => ({
      type: 'add-team-member',
      ...acting,
      userId,
      teamMemberId: newId(),
      now,
    })
    switch (event.type) {
      case 'scim.group-created':
        return [
          { type: 'create-team', ...acting, name: event.data.displayName, now },
          ...event.data.members.map(add),
        ]
      case 'scim.group-updated':
        // A new externalId alone leaves the team as it is.
        return event.data.displayName === event.data.previousDisplayName
          ? []
          : [{ type: 'update-team', ...acting, name: event.data.displayName, now }]
      case 'scim.group-members-changed':
        return [
          ...event.data.added.map(add),
          ...event.data.removed.map(
            (userId): OrganizationCommand => ({ type: 'remove-team-member', ...acting, userId }),
          ),
        ]
      case 'scim.group-deleted':
        // A team an administrator removed already is drift: the group goes alone.
        return [{ type: 'remove-team', ...acting, activeTeamId: null }]
      default:
        return []
    }
  })

export type TeamFollowing = { commands: readonly OrganizationCommand[] }

/**
 * The organization's decider over a group's team commands: each decided on the state the ones
 * before it leave. Its `evolve` and `initialState` are the organization's own, so `handle` folds the
 * organization's stream once for both (folded-states.ts).
 */
export const teamFollower = (
  organizations: OrganizationDecider,
  { catchingUp = false } = {},
): Decider<TeamFollowing, OrganizationEvent, Organization> => ({
  initialState: organizations.initialState,
  evolve: organizations.evolve,
  decide: ({ commands }, state) => {
    const events: OrganizationEvent[] = []
    let current = state
    for (const command of commands) {
      try {
        const decided = organizations.decide(command, current)
        events.push(...decided)
        current = decided.reduce(organizations.evolve, current)
      } catch (error) {
        const drift = isDomainError(error) && (catchingUp || DRIFT.has(error.code))
        const tolerated = command.type !== 'create-team' && drift
        if (!tolerated) throw error
      }
    }
    return events
  },
})

/** What `withTeam` needs of the command context. */
export type TeamDependencies = Pick<CommandContext, 'handle' | 'store' | 'organizations' | 'clock'>

/**
 * The team's side alone, for group events already in the log without it: decided on the
 * organization as it is now (`handle` decides again on a concurrent change, unless `expectedVersion`
 * pins the append). What the organization refuses by then (a member who left, a full team) is
 * skipped, as drift is: the group is written. The live call follows its own events this way after a
 * failed append, the reconciler (scim-team-reconciler.ts) those of a call that died before.
 */
export const followAlone = async (
  ctx: TeamDependencies,
  metadata: EventMetadata,
  organizationId: string,
  commands: readonly OrganizationCommand[],
  options: { onAppended?: () => void; expectedVersion?: number } = {},
): Promise<void> => {
  if (commands.length === 0) return options.onAppended?.()
  await ctx.handle(
    teamFollower(ctx.organizations, { catchingUp: true }),
    organizationStream(organizationId),
    { commands },
    { metadata, claims: organizationClaims, ...options },
  )
}

/**
 * This call's own group events in the log after `version` (its correlation id names them): on a
 * store without multi-stream transactions (KurrentDB appends stream after stream) the group's append
 * can be in while the organization's failed on a concurrent change. On SQL there are never any.
 */
const ownGroupEventsAfter = async (
  ctx: TeamDependencies,
  stream: string,
  version: number,
  correlationId: string,
): Promise<ScimGroupEvent[]> => {
  const after = await ctx.store.readStream(stream, { afterVersion: version })
  return after
    .filter((event) => event.metadata.correlationId === correlationId)
    .map((event) => ({ type: event.type, data: event.data }) as ScimGroupEvent)
}

/**
 * The group's command and its team's side, appended together. The group's events are decided first
 * on the group as its stream has it (its own refusals first), and the append is pinned to that
 * version, since the team commands are made from those events; the organization's side is decided
 * on the organization as it is at the append. A concurrent change of either stream makes the whole
 * call decide again. In this process the calls of one organization go one at a time, as SCIM
 * creates do (they all append to the organization's stream). Where the group's events went in
 * without the team's (KurrentDB), the team then follows those events on its own: it never trails.
 */
export const withTeam = (
  ctx: TeamDependencies,
  metadata: EventMetadata,
  organizationId: string,
  groupId: string,
  command: ScimGroupCommand,
  isNew: boolean,
): Promise<void> =>
  oneAtATime(ctx, organizationId, (release) =>
    retryingConcurrency(async () => {
      const stream = scimGroupStream(groupId)
      const history = isNew ? [] : await ctx.store.readStream(stream)
      const events = scimGroupDecider.decide(command, fold(scimGroupDecider, history as never))
      const version = history.at(-1)?.streamVersion ?? 0
      const pinned = isNew ? { newStream: true } : version === 0 ? {} : { expectedVersion: version }
      // The organization's queue goes on once the append is in: the next call's read sees it.
      const group = handlePart(scimGroupDecider, stream, command, {
        metadata,
        claims: scimGroupClaims,
        onAppended: release,
        ...pinned,
      })
      const commands = teamCommandsOf(events, ctx.clock().toISOString(), newId)
      const team = handlePart(
        teamFollower(ctx.organizations),
        organizationStream(organizationId),
        { commands },
        { metadata, claims: organizationClaims, onAppended: release },
      )
      try {
        await ctx.handle.together(commands.length === 0 ? [group] : [group, team])
      } catch (error) {
        const landed = await ownGroupEventsAfter(ctx, stream, version, metadata.correlationId)
        if (landed.length === 0) throw error
        const following = teamCommandsOf(landed, ctx.clock().toISOString(), newId)
        await followAlone(ctx, metadata, organizationId, following, { onAppended: release })
      }
    }),
  )
