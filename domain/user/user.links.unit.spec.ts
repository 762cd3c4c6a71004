/// Issue 32, item 23: a new password or a ban voids every reset and deletion link outstanding; a
/// link issued after it works. Given/when/then over the user decider.

import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { type UserCommand, type UserEvent, userDecider } from './user.js'

const { given } = specFor(userDecider)

const NOW = '2026-11-28T10:00:00.000Z'
const IN_AN_HOUR = '2026-11-28T11:00:00.000Z'

const registered: UserEvent = {
  type: 'user.registered',
  data: {
    userId: 'u1',
    email: 'ada@example.com',
    name: 'Ada',
    image: null,
    emailVerified: true,
    credential: { accountId: 'a1', passwordHash: 'old' },
  },
}
const resetRequested = (tokenHash: string): UserEvent => ({
  type: 'user.password-reset-requested',
  data: {
    userId: 'u1',
    email: 'ada@example.com',
    requestId: tokenHash,
    tokenHash,
    expiresAt: IN_AN_HOUR,
    redirectTo: null,
  },
})
const deletionRequested = (tokenHash: string): UserEvent => ({
  type: 'user.deletion-requested',
  data: {
    userId: 'u1',
    email: 'ada@example.com',
    requestId: tokenHash,
    tokenHash,
    expiresAt: IN_AN_HOUR,
    callbackURL: null,
  },
})

const resetWith = (tokenHash: string): UserCommand => ({
  type: 'reset-password',
  tokenHash,
  passwordHash: 'newer',
  now: NOW,
  sameAsCurrent: false,
})
const deleteWith = (tokenHash: string): UserCommand => ({
  type: 'delete-user',
  proof: { kind: 'token', tokenHash, now: NOW },
})

const voiding: [string, UserEvent][] = [
  ['a password change', { type: 'user.password-changed', data: { userId: 'u1', passwordHash: 'new' } }],
  [
    'a password reset',
    { type: 'user.password-reset', data: { userId: 'u1', tokenHash: 'r0', passwordHash: 'new' } },
  ],
  [
    'a password set',
    { type: 'user.password-set', data: { userId: 'u1', accountId: 'a2', passwordHash: 'new' } },
  ],
  ['a ban', { type: 'user.banned', data: { userId: 'u1', reason: null, expiresAt: null } }],
]

describe('links outstanding when the password changes or the account is banned', () => {
  it.each(voiding)('after %s, an earlier reset link is refused', (_name, event) => {
    given([registered, resetRequested('r0'), resetRequested('r1'), event])
      .when(resetWith('r1'))
      .thenThrows('INVALID_TOKEN')
  })

  it.each(voiding)('after %s, an earlier deletion link is refused', (_name, event) => {
    given([registered, deletionRequested('d1'), event])
      .when(deleteWith('d1'))
      .thenThrows('INVALID_TOKEN')
  })

  it('a reset link asked for after the change still works', () => {
    given([registered, resetRequested('r1'), voiding[0]?.[1] as UserEvent, resetRequested('r2')])
      .when(resetWith('r2'))
      .then([{ type: 'user.password-reset', data: { userId: 'u1', tokenHash: 'r2', passwordHash: 'newer' } }])
  })

  it('after an erasure, no link does anything', () => {
    given([
      registered,
      resetRequested('r1'),
      { type: 'user.deleted', data: { userId: 'u1', email: 'ada@example.com' } },
    ])
      .when(resetWith('r1'))
      .thenThrows('USER_NOT_FOUND')
  })
})
