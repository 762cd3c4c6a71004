/// The session aggregate: one signed-in device. Stream: `session-<id>`. The raw token never
/// reaches the domain; only its hash does.

import { type AdminPolicy, impersonationRefusal, type Person } from '../admin/permissions.js'
import { AUTH_ERRORS, errorWithStatus } from '../errors.js'
import { refuseDeactivated } from '../scim/scim-user.js'
import type { Decider } from '../shared/decider.js'
import { DomainError } from '../shared/errors.js'
import type { Place } from '../shared/metadata.js'

export const sessionStream = (sessionId: string): string => `session-${sessionId}`

/**
 * `signed-in-again`: the account signed in anew on a device that still held one of its sessions
 * (multi-session keeps one per account and device), so the older one ended.
 */
/** `password-reset`: ended by a password reset, whoever followed the link (not the owner's own act). */
export type RevocationReason =
  | 'sign-out'
  | 'revoked'
  | 'revoked-others'
  | 'revoked-all'
  | 'signed-in-again'
  | 'password-reset'

/// Events

export type SessionEvent =
  | {
      type: 'session.started'
      data: {
        sessionId: string
        userId: string
        tokenHash: string
        expiresAt: string
        ipAddress: string | null
        userAgent: string | null
        /**
         * Where the device was when the session started, as a trusted proxy placed its address;
         * absent when unknown (and on events older than the field), null once erased.
         */
        place?: Place | null
        rememberMe: boolean
        /** The operator acting as this user (admin impersonation); absent on the user's own. */
        impersonatedBy?: string
        /**
         * How the person proved who they are (RFC 8176's idea; Tessera's names): `['passkey']` for a
         * passkey sign-in, which needs no second factor. Absent on sessions started otherwise.
         */
        amr?: string[]
      }
    }
  | { type: 'session.refreshed'; data: { sessionId: string; expiresAt: string } }
  | { type: 'session.revoked'; data: { sessionId: string; userId: string; reason: RevocationReason } }
  | { type: 'session.expired'; data: { sessionId: string; userId: string } }
  /** The organization (and team) the session works in (organization plugin); null for none. */
  | {
      type: 'session.active-organization-set'
      data: { sessionId: string; userId: string; organizationId: string | null; teamId: string | null }
    }

/// Commands

export type SessionCommand =
  | {
      type: 'start-session'
      sessionId: string
      userId: string
      tokenHash: string
      expiresAt: string
      ipAddress: string | null
      userAgent: string | null
      place?: Place
      rememberMe: boolean
      impersonatedBy?: string
      amr?: string[]
      /**
       * A ban that holds on the person (the edge read it and lifted an expired one), as the message
       * the deployment answers it with (`admin.bannedUserMessage`); null or absent when none holds.
       * Absent only where nobody can be banned yet (a new account's first session).
       */
      bannedWith?: string | null
      /** A directory keeps the person deactivated (SCIM; the edge read the inline record). */
      deactivated?: boolean
      /** An operator opening the session as the person: whether they may is decided here. */
      impersonation?: { operator: Person; target: Person; policy: AdminPolicy }
    }
  /**
   * Whether this person may be let in where no session is started yet (a request with an API key,
   * a sign-in paused for its second step): the same rule as `start-session`'s, and nothing happens.
   */
  | { type: 'admit-person'; bannedWith: string | null }
  | { type: 'refresh-session'; now: string; expiresAt: string }
  /** `requestedBy`: the user asking, or null when the system revokes. */
  | { type: 'revoke-session'; requestedBy: string | null; reason: RevocationReason }
  | { type: 'expire-session'; now: string }
  | {
      type: 'set-active-organization'
      requestedBy: string
      organizationId: string | null
      teamId: string | null
      /**
       * Whether the person belongs to the organization (and the team) named, as the caller read it
       * from the organization's stream; absent when the choice is cleared or just made by the person
       * joining or creating it.
       */
      membership?: { organization?: boolean; team?: boolean }
    }

/// State

export type Session =
  | { status: 'none' }
  | { status: 'active'; sessionId: string; userId: string; expiresAt: string; rememberMe: boolean }
  | { status: 'ended'; sessionId: string; userId: string }

export const initialState = (): Session => ({ status: 'none' })

/// Evolve: no rules, never throws

export const evolve = (state: Session, event: SessionEvent): Session => {
  switch (event.type) {
    case 'session.started': {
      const { sessionId, userId, expiresAt, rememberMe } = event.data
      return { status: 'active', sessionId, userId, expiresAt, rememberMe }
    }
    case 'session.refreshed':
      return state.status === 'active' ? { ...state, expiresAt: event.data.expiresAt } : state
    case 'session.revoked':
    case 'session.expired':
      return { status: 'ended', sessionId: event.data.sessionId, userId: event.data.userId }
    default:
      return state
  }
}

/// Decide: every rule

export const decide = (command: SessionCommand, state: Session): SessionEvent[] => {
  switch (command.type) {
    case 'start-session':
      return start(command, state)
    case 'admit-person':
      refuseStart(command)
      return []
    case 'refresh-session':
      return refresh(command, state)
    case 'revoke-session':
      return revoke(command, state)
    case 'expire-session':
      return expire(command, state)
    case 'set-active-organization':
      return setActiveOrganization(command, state)
  }
}

const isExpired = (expiresAt: string, now: string) => Date.parse(expiresAt) <= Date.parse(now)

type StartSession = Extract<SessionCommand, { type: 'start-session' }>

/**
 * Who gets no session, in better-auth's order: an operator who may not act as this person (an admin
 * needs `impersonate-admins`), then a banned person, whoever opens it (the admin plugin refuses on
 * session creation), then one a directory deactivated.
 */
const refuseStart = ({
  impersonation,
  bannedWith,
  deactivated,
}: Partial<Pick<StartSession, 'impersonation' | 'bannedWith' | 'deactivated'>>): void => {
  if (impersonation) {
    const refusal = impersonationRefusal(impersonation.operator, impersonation.target, impersonation.policy)
    if (refusal === 'not-allowed') throw AUTH_ERRORS.error('YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS')
    if (refusal === 'target-is-admin') throw AUTH_ERRORS.error('YOU_CANNOT_IMPERSONATE_ADMINS')
  }
  if (bannedWith != null) throw new DomainError('BANNED_USER', AUTH_ERRORS.BANNED_USER.status, bannedWith)
  refuseDeactivated({ deactivated: deactivated === true })
}

const start = (command: StartSession, state: Session): SessionEvent[] => {
  refuseStart(command)
  if (state.status !== 'none') throw AUTH_ERRORS.error('FAILED_TO_CREATE_SESSION')
  // The facts judged above are not what happened: they stay out of the event.
  const { type: _type, bannedWith: _ban, deactivated: _off, impersonation: _as, ...data } = command
  return [{ type: 'session.started', data }]
}

// A session that ended or expired meanwhile is simply not extended: the caller's read will say so.
const refresh = (
  command: Extract<SessionCommand, { type: 'refresh-session' }>,
  state: Session,
): SessionEvent[] => {
  if (state.status !== 'active' || isExpired(state.expiresAt, command.now) || !state.rememberMe) return []
  if (Date.parse(command.expiresAt) <= Date.parse(state.expiresAt)) return []
  return [{ type: 'session.refreshed', data: { sessionId: state.sessionId, expiresAt: command.expiresAt } }]
}

const revoke = (
  command: Extract<SessionCommand, { type: 'revoke-session' }>,
  state: Session,
): SessionEvent[] => {
  if (state.status === 'none') throw AUTH_ERRORS.error('SESSION_NOT_FOUND')
  if (command.requestedBy !== null && command.requestedBy !== state.userId)
    throw AUTH_ERRORS.error('UNAUTHORIZED')
  if (state.status === 'ended') return []
  return [
    {
      type: 'session.revoked',
      data: { sessionId: state.sessionId, userId: state.userId, reason: command.reason },
    },
  ]
}

const expire = (
  command: Extract<SessionCommand, { type: 'expire-session' }>,
  state: Session,
): SessionEvent[] => {
  if (state.status !== 'active' || !isExpired(state.expiresAt, command.now)) return []
  return [{ type: 'session.expired', data: { sessionId: state.sessionId, userId: state.userId } }]
}

type SetActiveOrganization = Extract<SessionCommand, { type: 'set-active-organization' }>

/**
 * The session records its own user's choice. A team the person is not in is refused as it is; an
 * organization they do not belong to clears the choice, then is refused (`activeOrganizationRefusal`),
 * as better-auth does.
 */
const setActiveOrganization = (command: SetActiveOrganization, state: Session): SessionEvent[] => {
  if (state.status !== 'active' || command.requestedBy !== state.userId)
    throw AUTH_ERRORS.error('UNAUTHORIZED')
  if (command.membership?.team === false) throw errorWithStatus('USER_IS_NOT_A_MEMBER_OF_THE_TEAM', 403)
  const member = command.membership?.organization !== false
  return [
    {
      type: 'session.active-organization-set',
      data: {
        sessionId: state.sessionId,
        userId: state.userId,
        organizationId: member ? command.organizationId : null,
        teamId: member ? command.teamId : null,
      },
    },
  ]
}

/** The refusal a set-active decision recorded instead of throwing: its clearing is kept, then answered. */
export const activeOrganizationRefusal = (command: SetActiveOrganization): DomainError | null =>
  command.membership?.organization === false
    ? errorWithStatus('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION', 403)
    : null

export const sessionDecider: Decider<SessionCommand, SessionEvent, Session> = { decide, evolve, initialState }
