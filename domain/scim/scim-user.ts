/// A person as a directory (an SCIM connection) provisioned them into an organization: which
/// connection owns them, their userName and externalId there, and whether the directory keeps them
/// active. Stream: `scim-user-<userId>`. The account itself (name, address) is the user aggregate's
/// and the membership the organization's; this aggregate holds what only the directory says.
///
/// A connection sees only its own people: every command names the connection that sends it, and a
/// person another connection provisioned is "not found" to it, never "forbidden" (which would tell
/// that the person exists).

import type { Decider } from '../shared/decider.js'
import { SCIM_ERRORS } from './scim-errors.js'

export const scimUserStream = (userId: string): string => `scim-user-${userId}`

/** Unique per connection (store claims): `<connectionId>:<lowercased value>`. */
export const SCIM_USER_NAME_SCOPE = 'scim.user-name'
export const SCIM_EXTERNAL_ID_SCOPE = 'scim.external-id'

type Owner = { userId: string; organizationId: string; connectionId: string }

/// Events

export type ScimUserEvent =
  | {
      type: 'scim.user-provisioned'
      data: Owner & { userName: string; externalId: string | null; active: boolean }
    }
  | {
      type: 'scim.user-updated'
      data: Owner & {
        userName: string
        externalId: string | null
        previousUserName: string
        previousExternalId: string | null
        /** The resource's attributes the call changed (names, not values), for the audit feed. */
        attributes: string[]
      }
    }
  /** Every session of the person ends at once, and no sign-in succeeds until reactivated. */
  | { type: 'scim.user-deactivated'; data: Owner }
  | { type: 'scim.user-reactivated'; data: Owner }
  /** The directory deleted the person: their membership goes, and the connection forgets them. */
  | {
      type: 'scim.user-deprovisioned'
      data: Owner & { userName: string; externalId: string | null }
    }

/// Commands

export type ScimUserCommand =
  | {
      type: 'provision-scim-user'
      userId: string
      organizationId: string
      connectionId: string
      userName: string
      externalId: string | null
      active: boolean
    }
  /** A replace or a patch, resolved to the values the resource now has. */
  | {
      type: 'update-scim-user'
      connectionId: string
      userName: string
      externalId: string | null
      active: boolean
      /** Attributes of the account the call changed (`name`, `emails`), applied on the user stream. */
      accountAttributes: string[]
    }
  | { type: 'deprovision-scim-user'; connectionId: string }

/// State

export type ScimUser =
  | { status: 'none' }
  | ({ status: 'provisioned'; userName: string; externalId: string | null; active: boolean } & Owner)
  | { status: 'deprovisioned' }

export const initialState = (): ScimUser => ({ status: 'none' })

/// Evolve: no rules, never throws

export const evolve = (state: ScimUser, event: ScimUserEvent): ScimUser => {
  switch (event.type) {
    case 'scim.user-provisioned':
      return { status: 'provisioned', ...event.data }
    case 'scim.user-updated':
      return state.status === 'provisioned'
        ? { ...state, userName: event.data.userName, externalId: event.data.externalId }
        : state
    case 'scim.user-deactivated':
      return state.status === 'provisioned' ? { ...state, active: false } : state
    case 'scim.user-reactivated':
      return state.status === 'provisioned' ? { ...state, active: true } : state
    case 'scim.user-deprovisioned':
      return { status: 'deprovisioned' }
  }
}

/// Decide

type Provisioned = Extract<ScimUser, { status: 'provisioned' }>

/** The person as the sending connection may see them; anyone else's is not found. */
const ownedBy = (state: ScimUser, connectionId: string): Provisioned => {
  if (state.status !== 'provisioned' || state.connectionId !== connectionId)
    throw SCIM_ERRORS.error('SCIM_USER_NOT_FOUND')
  return state
}

const ownerOf = ({ userId, organizationId, connectionId }: Provisioned): Owner => ({
  userId,
  organizationId,
  connectionId,
})

const update = (
  command: Extract<ScimUserCommand, { type: 'update-scim-user' }>,
  state: ScimUser,
): ScimUserEvent[] => {
  const user = ownedBy(state, command.connectionId)
  const owner = ownerOf(user)
  const events: ScimUserEvent[] = []
  const attributes = [
    ...(command.userName !== user.userName ? ['userName'] : []),
    ...(command.externalId !== user.externalId ? ['externalId'] : []),
    ...command.accountAttributes,
  ]
  if (attributes.length > 0)
    events.push({
      type: 'scim.user-updated',
      data: {
        ...owner,
        userName: command.userName,
        externalId: command.externalId,
        previousUserName: user.userName,
        previousExternalId: user.externalId,
        attributes,
      },
    })
  if (command.active !== user.active)
    events.push({ type: command.active ? 'scim.user-reactivated' : 'scim.user-deactivated', data: owner })
  return events
}

export const decide = (command: ScimUserCommand, state: ScimUser): ScimUserEvent[] => {
  switch (command.type) {
    case 'provision-scim-user': {
      if (state.status !== 'none') throw SCIM_ERRORS.error('SCIM_USER_ALREADY_EXISTS')
      const { type: _, ...data } = command
      const { userId, organizationId, connectionId } = data
      // Provisioned inactive: deactivated from the start, so the inline record refuses sign-in.
      return [
        { type: 'scim.user-provisioned', data },
        ...(data.active
          ? []
          : [{ type: 'scim.user-deactivated' as const, data: { userId, organizationId, connectionId } }]),
      ]
    }
    case 'update-scim-user':
      return update(command, state)
    case 'deprovision-scim-user': {
      const user = ownedBy(state, command.connectionId)
      return [
        {
          type: 'scim.user-deprovisioned',
          data: { ...ownerOf(user), userName: user.userName, externalId: user.externalId },
        },
      ]
    }
  }
}

export const scimUserDecider: Decider<ScimUserCommand, ScimUserEvent, ScimUser> = {
  decide,
  evolve,
  initialState,
}

/// Sign-in: the one rule every way in shares

/**
 * Refuses a sign-in while the directory keeps the person deactivated. `deactivated` comes from the
 * inline record of deactivations (written with the event), so it holds on every instance at once.
 */
export const refuseDeactivated = (standing: { deactivated: boolean }): void => {
  if (standing.deactivated) throw SCIM_ERRORS.error('USER_DEACTIVATED')
}

/// Unique values: a userName and an externalId name one person per connection

type Claim = { op: 'claim' | 'release'; scope: string; value: string; owner: string }

const key = (connectionId: string, value: string) => `${connectionId}:${value.toLowerCase()}`

const claimsOf = (
  op: Claim['op'],
  owner: string,
  connectionId: string,
  userName: string | null,
  externalId: string | null,
): Claim[] => [
  ...(userName ? [{ op, scope: SCIM_USER_NAME_SCOPE, value: key(connectionId, userName), owner }] : []),
  ...(externalId ? [{ op, scope: SCIM_EXTERNAL_ID_SCOPE, value: key(connectionId, externalId), owner }] : []),
]

export const scimUserClaims = (events: readonly ScimUserEvent[]): Claim[] =>
  events.flatMap((event): Claim[] => {
    const { userId, connectionId } = event.data
    switch (event.type) {
      case 'scim.user-provisioned':
        return claimsOf('claim', userId, connectionId, event.data.userName, event.data.externalId)
      case 'scim.user-updated': {
        const { userName, externalId, previousUserName, previousExternalId } = event.data
        const nameChanged = userName.toLowerCase() !== previousUserName.toLowerCase()
        const idChanged = (externalId ?? '').toLowerCase() !== (previousExternalId ?? '').toLowerCase()
        return [
          ...claimsOf(
            'release',
            userId,
            connectionId,
            nameChanged ? previousUserName : null,
            idChanged ? previousExternalId : null,
          ),
          ...claimsOf(
            'claim',
            userId,
            connectionId,
            nameChanged ? userName : null,
            idChanged ? externalId : null,
          ),
        ]
      }
      case 'scim.user-deprovisioned':
        return claimsOf('release', userId, connectionId, event.data.userName, event.data.externalId)
      default:
        return []
    }
  })
