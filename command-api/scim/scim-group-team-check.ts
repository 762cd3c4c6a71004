/// A group's team-side changes decided BEFORE the group is written: the organization decider is run
/// over the team commands the group change will cause (create the team, rename it, add and remove
/// its members), on the organization as its stream has it. A refusal there (teams turned off, the
/// team limit, the team member limit, a member no longer in the organization) refuses the whole
/// SCIM call, so no group is ever written half-followed by its team. What a team may drift from on
/// its own (an administrator removed the team or a member) is tolerated, as followMembers does.

import type { OrganizationCommand } from '../../domain/organization/organization.commands.js'
import { organizationStream } from '../../domain/organization/organization.js'
import { type ScimGroupCommand, type ScimGroupEvent, scimGroupDecider } from '../../domain/scim/scim-group.js'
import { fold } from '../../domain/shared/decider.js'
import { isDomainError } from '../../domain/shared/errors.js'
import type { CommandContext } from '../context.js'

const DRIFT = new Set(['USER_IS_NOT_A_MEMBER_OF_THE_TEAM', 'TEAM_NOT_FOUND'])

/** The organization commands a group's events cause, in order. */
const teamCommandsOf = (events: readonly ScimGroupEvent[], now: string): OrganizationCommand[] =>
  events.flatMap((event): OrganizationCommand[] => {
    const acting = { actorUserId: null, teamId: event.data.groupId }
    const add = (userId: string): OrganizationCommand => ({
      type: 'add-team-member',
      ...acting,
      userId,
      teamMemberId: `check-${userId}`,
      now,
    })
    switch (event.type) {
      case 'scim.group-created':
        return [
          { type: 'create-team', ...acting, name: event.data.displayName, now },
          ...event.data.members.map(add),
        ]
      case 'scim.group-updated':
        return [{ type: 'update-team', ...acting, name: event.data.displayName, now }]
      case 'scim.group-members-changed':
        return [
          ...event.data.added.map(add),
          ...event.data.removed.map(
            (userId): OrganizationCommand => ({ type: 'remove-team-member', ...acting, userId }),
          ),
        ]
      default:
        return []
    }
  })

/**
 * Decides `command` on the group as its stream has it (its own refusals first), then the team
 * commands it causes on the organization; throws the first refusal, writes nothing.
 */
export const refuseTeamSide = async (
  ctx: CommandContext,
  groupStream: string,
  organizationId: string,
  command: ScimGroupCommand,
): Promise<void> => {
  const group = fold(scimGroupDecider, (await ctx.store.readStream(groupStream)) as never)
  const events = scimGroupDecider.decide(command, group)
  const commands = teamCommandsOf(events, ctx.clock().toISOString())
  if (commands.length === 0) return
  const decider = ctx.organizations
  let state = fold(decider, (await ctx.store.readStream(organizationStream(organizationId))) as never)
  for (const teamCommand of commands) {
    try {
      state = decider.decide(teamCommand, state).reduce(decider.evolve, state)
    } catch (error) {
      const tolerated = teamCommand.type !== 'create-team' && isDomainError(error) && DRIFT.has(error.code)
      if (!tolerated) throw error
    }
  }
}
