import { describe, expect, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { impersonationRefusal } from '../admin/permissions.js'
import { type SessionEvent, sessionDecider } from './session.js'

const { given } = specFor(sessionDecider)

const impersonated: SessionEvent = {
  type: 'session.started',
  data: {
    sessionId: 's1',
    userId: 'u1',
    tokenHash: 'h',
    expiresAt: '2026-01-01T01:00:00.000Z',
    ipAddress: null,
    userAgent: null,
    rememberMe: true,
    impersonatedBy: 'admin1',
  },
}

describe('impersonation', () => {
  it('given nothing, when an operator opens a session as a user, then it names the operator', () =>
    given([])
      .when({
        type: 'start-session',
        sessionId: 's1',
        userId: 'u1',
        tokenHash: 'h',
        expiresAt: '2026-01-01T01:00:00.000Z',
        ipAddress: null,
        userAgent: null,
        rememberMe: true,
        impersonatedBy: 'admin1',
      })
      .then([impersonated]))

  it('given an impersonation, when it stops, then the session is revoked', () =>
    given([impersonated])
      .when({ type: 'revoke-session', requestedBy: 'u1', reason: 'sign-out' })
      .then([{ type: 'session.revoked', data: { sessionId: 's1', userId: 'u1', reason: 'sign-out' } }]))

  const admin = { id: 'boss', role: 'admin' }
  const user = { id: 'u1', role: null }

  it('an admin may impersonate a user', () => expect(impersonationRefusal(admin, user)).toBeNull())
  it('a user may not impersonate anyone', () =>
    expect(impersonationRefusal({ id: 'u2', role: 'user' }, user)).toBe('not-allowed'))
  it('an admin may not impersonate another admin by default', () =>
    expect(impersonationRefusal(admin, { id: 'u3', role: 'user,admin' })).toBe('target-is-admin'))
  it('unless the option allows it', () =>
    expect(
      impersonationRefusal(admin, { id: 'u3', role: 'admin' }, { allowImpersonatingAdmins: true }),
    ).toBeNull())
  it('or a role holds impersonate-admins', () =>
    expect(
      impersonationRefusal(
        { id: 'r', role: 'root' },
        { id: 'u3', role: 'admin' },
        {
          roles: { root: { user: ['impersonate', 'impersonate-admins'] } },
        },
      ),
    ).toBeNull())
  it('adminRoles: holders of a role listed there are protected as admins', () =>
    expect(impersonationRefusal(admin, user, { adminRoles: ['admin', 'user'] })).toBe('target-is-admin'))
  it('adminUserIds: a listed user is an admin, both to impersonate and to be protected', () => {
    const policy = { adminUserIds: ['u1'] }
    expect(impersonationRefusal(admin, user, policy)).toBe('target-is-admin')
    expect(impersonationRefusal(user, { id: 'u4', role: 'admin' }, policy)).toBeNull()
  })
})
