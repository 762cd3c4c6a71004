/// What the SCIM team reconciler knows of the log it has read: the SCIM group calls whose team has
/// not followed them (yet). On KurrentDB a call appends its group's events, then the organization's
/// team events with the same correlation id; a call whose process died between the two leaves group
/// events that no organization event of that correlation id ever follows.
///
/// A call's team events come after its group events in the log (the store appends the group first),
/// so reading the log in order is enough: a call is noted at its group events and forgotten when an
/// organization event of its correlation id goes by. Until it is followed, what the organization's
/// later events (of other calls: an administrator, a later SCIM call) did to the same team members
/// or to the team's name is noted too: following the older call must not undo a later change.

import type { OrganizationCommand } from '../../domain/organization/organization.commands.js'
import { organizationStream } from '../../domain/organization/organization.js'
import type { ScimGroupEvent } from '../../domain/scim/scim-group.js'
import type { GlobalPosition, RecordedEvent } from '../../infra/event-store/event-store.js'
import { teamCommandsOf } from './scim-team-follower.js'

export type TrailingCall = {
  organizationId: string
  correlationId: string
  /** The call's group events (one append), in order. */
  events: RecordedEvent[]
  /** The position just before the call's first event: a checkpoint may stand there while it trails. */
  before: GlobalPosition
  /** Team members (`<teamId>/<userId>`) and team names (`<teamId>`) other calls changed since. */
  touched: Set<string>
}

export type Trail = {
  /** The last event read. */
  readTo: GlobalPosition
  /** In log order. */
  calls: TrailingCall[]
}

export const emptyTrail = (from: GlobalPosition): Trail => ({ readTo: from, calls: [] })

export const asGroupEvents = (events: readonly RecordedEvent[]): ScimGroupEvent[] =>
  events.map((event) => ({ type: event.type, data: event.data }) as ScimGroupEvent)

/** A group event its team follows: not an externalId-only update (that causes no team command). */
const followedByTeam = (event: RecordedEvent): boolean =>
  event.type.startsWith('scim.group-') && teamCommandsOf(asGroupEvents([event]), '', () => '').length > 0

/** What an organization event of another call changed: a team member, or a team's name. */
const touchedBy = (event: RecordedEvent): string | null => {
  const data = event.data as { teamId?: string; userId?: string }
  switch (event.type) {
    case 'organization.team-member-added':
    case 'organization.team-member-removed':
      return `${data.teamId}/${data.userId}`
    case 'organization.team-updated':
      return `${data.teamId}`
    default:
      return null
  }
}

const noteGroupEvent = (trail: Trail, event: RecordedEvent): void => {
  const { correlationId } = event.metadata
  const last = trail.calls.at(-1)
  if (last && last.correlationId === correlationId && last.events[0]?.streamId === event.streamId) {
    last.events.push(event)
    return
  }
  const { organizationId } = event.data as { organizationId: string }
  trail.calls.push({
    organizationId,
    correlationId,
    events: [event],
    before: trail.readTo,
    touched: new Set(),
  })
}

const noteOrganizationEvent = (trail: Trail, event: RecordedEvent): void => {
  const touched = touchedBy(event)
  trail.calls = trail.calls.filter((call) => {
    if (organizationStream(call.organizationId) !== event.streamId) return true
    // The call's own team events: its team followed it (live, or a reconciler before).
    if (call.correlationId === event.metadata.correlationId) return false
    if (touched) call.touched.add(touched)
    return true
  })
}

/** Reads `events` (the next ones of the log, in order) into the trail. */
export const readInto = (trail: Trail, events: readonly RecordedEvent[]): void => {
  for (const event of events) {
    if (followedByTeam(event)) noteGroupEvent(trail, event)
    else if (event.streamId.startsWith('organization-') && trail.calls.length > 0)
      noteOrganizationEvent(trail, event)
    trail.readTo = event.position
  }
}

/** The call's team commands, but those about what another call changed since: the later change stands. */
export const untouchedCommands = (
  call: TrailingCall,
  commands: readonly OrganizationCommand[],
): OrganizationCommand[] =>
  commands.filter((command) => {
    switch (command.type) {
      case 'add-team-member':
      case 'remove-team-member':
        return !call.touched.has(`${command.teamId}/${command.userId}`)
      case 'update-team':
        return !call.touched.has(command.teamId)
      default:
        return true
    }
  })
