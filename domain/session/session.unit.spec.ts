import { describe, expect, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import {
  activeOrganizationRefusal,
  type SessionCommand,
  type SessionEvent,
  sessionDecider,
} from './session.js'

const { given } = specFor(sessionDecider)

const startCommand: Extract<SessionCommand, { type: 'start-session' }> = {
  type: 'start-session',
  sessionId: 's1',
  userId: 'u1',
  tokenHash: 'h',
  expiresAt: '2026-01-08T00:00:00.000Z',
  ipAddress: '127.0.0.1',
  userAgent: 'test',
  rememberMe: true,
}

const started = (overrides: { rememberMe?: boolean } = {}): SessionEvent => ({
  type: 'session.started',
  data: {
    sessionId: 's1',
    userId: 'u1',
    tokenHash: 'h',
    expiresAt: '2026-01-08T00:00:00.000Z',
    ipAddress: '127.0.0.1',
    userAgent: 'test',
    rememberMe: overrides.rememberMe ?? true,
  },
})

const revoked: SessionEvent = {
  type: 'session.revoked',
  data: { sessionId: 's1', userId: 'u1', reason: 'sign-out' },
}

describe('session: start', () => {
  it('starts a session', () => given([]).when(startCommand).then([started()]))
  it('cannot start the same session twice', () =>
    given([started()]).when(startCommand).thenThrows('FAILED_TO_CREATE_SESSION'))
  it('refuses a banned person, in the words the deployment chose', () =>
    given([])
      .when({ ...startCommand, bannedWith: 'Banned for spam' })
      .thenThrows('BANNED_USER', { status: 403, message: 'Banned for spam' }))
  it('starts one for a person with no ban holding, and records no ban', () =>
    given([])
      .when({ ...startCommand, bannedWith: null, deactivated: false })
      .then([started()]))
  it('refuses a person a directory deactivated, after a ban', () => {
    given([])
      .when({ ...startCommand, deactivated: true })
      .thenThrows('USER_DEACTIVATED', { status: 403 })
    given([])
      .when({ ...startCommand, deactivated: true, bannedWith: 'Banned' })
      .thenThrows('BANNED_USER')
  })
})

describe('session: letting a person in before any session starts (an API key, a second step)', () => {
  it('refuses a banned person, in the words the deployment chose, and records nothing', () =>
    given([])
      .when({ type: 'admit-person', bannedWith: 'Banned for spam' })
      .thenThrows('BANNED_USER', { status: 403, message: 'Banned for spam' }))
  it('lets in a person no ban holds on, and records nothing', () =>
    given([]).when({ type: 'admit-person', bannedWith: null }).then([]))
})

describe('session: an operator opening one as the person', () => {
  const admin = { id: 'boss', role: 'admin' }
  type Person = { id: string; role: string | null }
  const opening = (operator: Person, target: Person): typeof startCommand => ({
    ...startCommand,
    impersonatedBy: operator.id,
    impersonation: { operator, target, policy: {} },
  })
  const impersonated = (): SessionEvent => {
    const event = started()
    return { ...event, data: { ...event.data, impersonatedBy: 'boss' } } as SessionEvent
  }
  it('opens it for an admin acting as a user, and keeps only who acted', () =>
    given([])
      .when(opening(admin, { id: 'u1', role: 'user' }))
      .then([impersonated()]))
  it('refuses someone whose role may not impersonate', () =>
    given([])
      .when(opening({ id: 'boss', role: 'user' }, { id: 'u1', role: null }))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS', { status: 403 }))
  it('refuses an admin target without impersonate-admins, before a ban or a deactivation', () =>
    given([])
      .when({ ...opening(admin, { id: 'u1', role: 'admin' }), bannedWith: 'Banned', deactivated: true })
      .thenThrows('YOU_CANNOT_IMPERSONATE_ADMINS', { status: 403 }))
  it('unless the admin options allow it', () =>
    given([])
      .when({
        ...opening(admin, { id: 'u1', role: 'admin' }),
        impersonation: {
          operator: admin,
          target: { id: 'u1', role: 'admin' },
          policy: { allowImpersonatingAdmins: true },
        },
      })
      .then([impersonated()]))
})

describe('session: refresh', () => {
  const refresh = (now: string, expiresAt: string): SessionCommand => ({
    type: 'refresh-session',
    now,
    expiresAt,
  })

  it('extends an active session', () =>
    given([started()])
      .when(refresh('2026-01-03T00:00:00.000Z', '2026-01-10T00:00:00.000Z'))
      .then([
        { type: 'session.refreshed', data: { sessionId: 's1', expiresAt: '2026-01-10T00:00:00.000Z' } },
      ]))

  it('does not extend an expired session', () =>
    given([started()]).when(refresh('2026-01-09T00:00:00.000Z', '2026-01-16T00:00:00.000Z')).then([]))

  it('does not extend a session started without remember-me', () =>
    given([started({ rememberMe: false })])
      .when(refresh('2026-01-03T00:00:00.000Z', '2026-01-10T00:00:00.000Z'))
      .then([]))

  it('does not extend an ended session', () =>
    given([started(), revoked])
      .when(refresh('2026-01-03T00:00:00.000Z', '2026-01-10T00:00:00.000Z'))
      .then([]))
})

describe('session: revoke', () => {
  const revoke = (requestedBy: string | null): SessionCommand => ({
    type: 'revoke-session',
    requestedBy,
    reason: 'sign-out',
  })

  it('revokes its owner’s session', () => given([started()]).when(revoke('u1')).then([revoked]))
  it('lets the system revoke', () => given([started()]).when(revoke(null)).then([revoked]))
  it('refuses another user', () => given([started()]).when(revoke('u2')).thenThrows('UNAUTHORIZED'))
  it('is idempotent once ended', () => given([started(), revoked]).when(revoke('u1')).then([]))
  it('reports an unknown session', () => given([]).when(revoke('u1')).thenThrows('SESSION_NOT_FOUND'))
})

describe('session: expire', () => {
  const expire = (now: string): SessionCommand => ({ type: 'expire-session', now })

  it('expires a session past its expiry', () =>
    given([started()])
      .when(expire('2026-01-08T00:00:00.000Z'))
      .then([{ type: 'session.expired', data: { sessionId: 's1', userId: 'u1' } }]))

  it('leaves a live session alone', () =>
    given([started()]).when(expire('2026-01-07T00:00:00.000Z')).then([]))
})

describe('session: the active organization and team', () => {
  const setActive = (
    membership?: Extract<SessionCommand, { type: 'set-active-organization' }>['membership'],
  ): Extract<SessionCommand, { type: 'set-active-organization' }> => ({
    type: 'set-active-organization',
    requestedBy: 'u1',
    organizationId: 'o1',
    teamId: 't1',
    ...(membership ? { membership } : {}),
  })
  const activeSet = (organizationId: string | null, teamId: string | null): SessionEvent => ({
    type: 'session.active-organization-set',
    data: { sessionId: 's1', userId: 'u1', organizationId, teamId },
  })

  it('records a member’s choice', () =>
    given([started()])
      .when(setActive({ organization: true, team: true }))
      .then([activeSet('o1', 't1')]))

  it('clears the choice of an organization the person does not belong to, then refuses it', () => {
    const command = setActive({ organization: false })
    given([started()])
      .when(command)
      .then([activeSet(null, null)])
    expect(activeOrganizationRefusal(command)).toMatchObject({
      code: 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
      status: 403,
    })
  })

  it('refuses a team the person is not in, and records nothing', () =>
    given([started()])
      .when(setActive({ team: false }))
      .thenThrows('USER_IS_NOT_A_MEMBER_OF_THE_TEAM', { status: 403 }))

  it('has no refusal for a member or a choice cleared', () =>
    expect(activeOrganizationRefusal(setActive({ organization: true }))).toBeNull())

  it('refuses another person’s session', () =>
    given([started()])
      .when({ ...setActive(), requestedBy: 'u2' })
      .thenThrows('UNAUTHORIZED'))
})
