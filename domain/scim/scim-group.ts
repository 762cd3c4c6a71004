/// A group as a directory (an SCIM connection) keeps it: its displayName, externalId and members
/// (people the same connection provisioned). Stream: `scim-group-<groupId>`. Each group is also a
/// team of the organization with the same id; the team's events are the organization's, written
/// with these. A connection sees only its own groups: another's is "not found" to it.
///
/// Changes are decided on the stream: a patch's operations are applied to the group as its events
/// say it is, so two patches at once never lose one another's members (a concurrent append makes
/// `handle` decide again on the newer history).

import type { Decider } from '../shared/decider.js'
import { SCIM_ERRORS } from './scim-errors.js'

export const scimGroupStream = (groupId: string): string => `scim-group-${groupId}`

/** Unique per connection (store claims): `<connectionId>:<lowercased value>`. */
export const SCIM_GROUP_DISPLAY_NAME_SCOPE = 'scim.group-display-name'
export const SCIM_GROUP_EXTERNAL_ID_SCOPE = 'scim.group-external-id'
/** As the plugin's `SCIM_MAX_GROUP_MEMBERS`. */
export const SCIM_GROUP_MEMBER_LIMIT = 1000

type Owner = { groupId: string; organizationId: string; connectionId: string }

/// Events

export type ScimGroupEvent =
  | {
      type: 'scim.group-created'
      data: Owner & { displayName: string; externalId: string | null; members: string[] }
    }
  | {
      type: 'scim.group-updated'
      data: Owner & {
        displayName: string
        externalId: string | null
        previousDisplayName: string
        previousExternalId: string | null
      }
    }
  | { type: 'scim.group-members-changed'; data: Owner & { added: string[]; removed: string[] } }
  | {
      type: 'scim.group-deleted'
      data: Owner & { displayName: string; externalId: string | null; members: string[] }
    }

/// Commands

/** One step of a PATCH, read from the request at the edge, applied here in order. */
export type ScimGroupOperation =
  | { op: 'add-members'; userIds: string[] }
  | { op: 'remove-members'; userIds: string[] }
  | { op: 'replace-members'; userIds: string[] }
  | { op: 'set-display-name'; value: string }
  | { op: 'set-external-id'; value: string | null }

type Facts = {
  connectionId: string
  /** Of the user ids the call names, those the connection provisioned (read at the edge). */
  provisioned: string[]
  /** Whether the organization has teams (each group is one); absent: on. */
  teamsEnabled?: boolean
}

export type ScimGroupCommand =
  | ({
      type: 'create-scim-group'
      groupId: string
      organizationId: string
      displayName: string
      externalId: string | null
      members: string[]
    } & Facts)
  /** A PUT is `replace-members` plus both attributes; a PATCH is its operations. */
  | ({ type: 'change-scim-group'; operations: ScimGroupOperation[] } & Facts)
  | { type: 'delete-scim-group'; connectionId: string }

/// State

type Shape = { displayName: string; externalId: string | null; members: Set<string> }

export type ScimGroup = { status: 'none' } | ({ status: 'active' } & Owner & Shape) | { status: 'deleted' }

export const initialState = (): ScimGroup => ({ status: 'none' })

/// Evolve: no rules, never throws

export const evolve = (state: ScimGroup, event: ScimGroupEvent): ScimGroup => {
  switch (event.type) {
    case 'scim.group-created':
      return { status: 'active', ...event.data, members: new Set(event.data.members) }
    case 'scim.group-updated':
      return state.status === 'active'
        ? { ...state, displayName: event.data.displayName, externalId: event.data.externalId }
        : state
    case 'scim.group-members-changed': {
      if (state.status !== 'active') return state
      const members = new Set(state.members)
      for (const userId of event.data.added) members.add(userId)
      for (const userId of event.data.removed) members.delete(userId)
      return { ...state, members }
    }
    case 'scim.group-deleted':
      return { status: 'deleted' }
  }
}

/// Decide

type Active = Extract<ScimGroup, { status: 'active' }>

const ownedBy = (state: ScimGroup, connectionId: string): Active => {
  if (state.status !== 'active' || state.connectionId !== connectionId)
    throw SCIM_ERRORS.error('SCIM_GROUP_NOT_FOUND')
  return state
}

const ownerOf = ({ groupId, organizationId, connectionId }: Active): Owner => ({
  groupId,
  organizationId,
  connectionId,
})

const checkedName = (displayName: string): string => {
  const trimmed = displayName.trim()
  if (trimmed === '') throw SCIM_ERRORS.error('SCIM_GROUP_DISPLAY_NAME_EMPTY')
  return trimmed
}

/** Members must be people this connection provisioned, and at most the limit. */
const checkedMembers = (members: Set<string>, added: readonly string[], provisioned: readonly string[]) => {
  const known = new Set(provisioned)
  if (added.some((userId) => !known.has(userId))) throw SCIM_ERRORS.error('SCIM_GROUP_MEMBER_INVALID')
  if (members.size > SCIM_GROUP_MEMBER_LIMIT) throw SCIM_ERRORS.error('SCIM_GROUP_TOO_MANY_MEMBERS')
}

const applyOperation = (shape: Shape, operation: ScimGroupOperation): void => {
  switch (operation.op) {
    case 'add-members':
      for (const userId of operation.userIds) shape.members.add(userId)
      return
    case 'remove-members':
      for (const userId of operation.userIds) shape.members.delete(userId)
      return
    case 'replace-members':
      shape.members = new Set(operation.userIds)
      return
    case 'set-display-name':
      shape.displayName = checkedName(operation.value)
      return
    case 'set-external-id':
      shape.externalId = operation.value
  }
}

const change = (
  command: Extract<ScimGroupCommand, { type: 'change-scim-group' }>,
  state: ScimGroup,
): ScimGroupEvent[] => {
  const group = ownedBy(state, command.connectionId)
  const next: Shape = { ...group, members: new Set(group.members) }
  for (const operation of command.operations) applyOperation(next, operation)
  const added = [...next.members].filter((userId) => !group.members.has(userId))
  const removed = [...group.members].filter((userId) => !next.members.has(userId))
  checkedMembers(next.members, added, command.provisioned)
  const owner = ownerOf(group)
  const events: ScimGroupEvent[] = []
  if (next.displayName !== group.displayName || next.externalId !== group.externalId)
    events.push({
      type: 'scim.group-updated',
      data: {
        ...owner,
        displayName: next.displayName,
        externalId: next.externalId,
        previousDisplayName: group.displayName,
        previousExternalId: group.externalId,
      },
    })
  if (added.length > 0 || removed.length > 0)
    events.push({ type: 'scim.group-members-changed', data: { ...owner, added, removed } })
  return events
}

export const decide = (command: ScimGroupCommand, state: ScimGroup): ScimGroupEvent[] => {
  switch (command.type) {
    case 'create-scim-group': {
      if (command.teamsEnabled === false) throw SCIM_ERRORS.error('SCIM_GROUPS_NEED_TEAMS')
      if (state.status !== 'none') throw SCIM_ERRORS.error('SCIM_GROUP_ALREADY_EXISTS')
      const members = [...new Set(command.members)]
      checkedMembers(new Set(members), members, command.provisioned)
      const { groupId, organizationId, connectionId, externalId } = command
      const displayName = checkedName(command.displayName)
      return [
        {
          type: 'scim.group-created',
          data: { groupId, organizationId, connectionId, displayName, externalId, members },
        },
      ]
    }
    case 'change-scim-group':
      if (command.teamsEnabled === false) throw SCIM_ERRORS.error('SCIM_GROUPS_NEED_TEAMS')
      return change(command, state)
    case 'delete-scim-group': {
      const group = ownedBy(state, command.connectionId)
      const { displayName, externalId } = group
      return [
        {
          type: 'scim.group-deleted',
          data: { ...ownerOf(group), displayName, externalId, members: [...group.members] },
        },
      ]
    }
  }
}

export const scimGroupDecider: Decider<ScimGroupCommand, ScimGroupEvent, ScimGroup> = {
  decide,
  evolve,
  initialState,
}

/// Unique values: a displayName and an externalId name one group per connection

type Claim = { op: 'claim' | 'release'; scope: string; value: string; owner: string }

const key = (connectionId: string, value: string) => `${connectionId}:${value.toLowerCase()}`

const claimsOf = (op: Claim['op'], data: Owner, displayName: string | null, externalId: string | null) => [
  ...(displayName
    ? [
        {
          op,
          scope: SCIM_GROUP_DISPLAY_NAME_SCOPE,
          value: key(data.connectionId, displayName),
          owner: data.groupId,
        },
      ]
    : []),
  ...(externalId
    ? [
        {
          op,
          scope: SCIM_GROUP_EXTERNAL_ID_SCOPE,
          value: key(data.connectionId, externalId),
          owner: data.groupId,
        },
      ]
    : []),
]

const differs = (a: string | null, b: string | null) => (a ?? '').toLowerCase() !== (b ?? '').toLowerCase()

export const scimGroupClaims = (events: readonly ScimGroupEvent[]): Claim[] =>
  events.flatMap((event): Claim[] => {
    switch (event.type) {
      case 'scim.group-created':
        return claimsOf('claim', event.data, event.data.displayName, event.data.externalId)
      case 'scim.group-updated': {
        const { displayName, externalId, previousDisplayName, previousExternalId } = event.data
        const nameChanged = differs(displayName, previousDisplayName)
        const idChanged = differs(externalId, previousExternalId)
        return [
          ...claimsOf(
            'release',
            event.data,
            nameChanged ? previousDisplayName : null,
            idChanged ? previousExternalId : null,
          ),
          ...claimsOf('claim', event.data, nameChanged ? displayName : null, idChanged ? externalId : null),
        ]
      }
      case 'scim.group-deleted':
        return claimsOf('release', event.data, event.data.displayName, event.data.externalId)
      default:
        return []
    }
  })
