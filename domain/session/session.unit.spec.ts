import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { type SessionCommand, type SessionEvent, sessionDecider } from './session.js'

const { given } = specFor(sessionDecider)

const startCommand: SessionCommand = {
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
