import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import type { AdminGrant } from './user.admin-update.js'
import { type UserCommand, type UserEvent, userDecider } from './user.js'

const { given } = specFor(userDecider)

const registered: UserEvent = {
  type: 'user.registered',
  data: {
    userId: 'u1',
    email: 'ada@example.com',
    name: 'Ada',
    image: null,
    emailVerified: false,
    credential: null,
  },
}

const all: Record<AdminGrant, boolean> = { ban: true, setEmail: true, setRole: true }

const update = (
  data: Record<string, unknown>,
  may: Partial<Record<AdminGrant, boolean>> = {},
  operatorId = 'op',
): UserCommand => ({ type: 'admin-update-user', userId: 'u1', data, may: { ...all, ...may }, operatorId })

describe('user: admin update-user, refused in the order the route answers', () => {
  it('refuses an empty update, then a password, before anything else', () => {
    given([]).when(update({})).thenThrows('NO_DATA_TO_UPDATE', { status: 400 })
    given([])
      .when(update({ password: 'x', banned: true }, { ban: false }, 'u1'))
      .thenThrows('PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER')
  })

  it('judges each field in the order sent: unknown, or one the operator may not set', () => {
    given([registered])
      .when(update({ banned: 'yes', role: 'admin' }, { ban: false, setRole: false }))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_BAN_USERS', { status: 403 })
    given([registered])
      .when(update({ role: 'admin', banned: true }, { ban: false, setRole: false }))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE')
    given([registered])
      .when(update({ emailVerified: true }, { setEmail: false }))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_SET_USERS_EMAIL')
    given([registered])
      .when(update({ nickname: 'x', email: 'b@example.com' }, { setEmail: false }))
      .thenThrows('VALIDATION_ERROR', { status: 400 })
  })

  it('refuses an operator banning themselves, before the types and whether the account exists', () => {
    given([])
      .when(update({ banned: true, banExpires: 'not a date' }, {}, 'u1'))
      .thenThrows('YOU_CANNOT_BAN_YOURSELF', { status: 400 })
  })

  it('then the types, the roles and the account', () => {
    given([registered])
      .when(update({ banExpires: 'not a date' }))
      .thenThrows('VALIDATION_ERROR')
    given([registered])
      .when(update({ role: [1] }))
      .thenThrows('INVALID_ROLE_TYPE')
    given([registered])
      .when(update({ role: 'wizard' }))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE')
    given([])
      .when(update({ name: 'Bea' }))
      .thenThrows('USER_NOT_FOUND', { status: 404 })
    given([registered])
      .when(update({ email: 'nope' }))
      .thenThrows('INVALID_EMAIL')
  })

  it('lets the server key (no operator id) ban anyone, and a person ban others', () => {
    const banned: UserEvent = { type: 'user.banned', data: { userId: 'u1', reason: null, expiresAt: null } }
    given([registered])
      .when({ type: 'admin-update-user', userId: 'u1', data: { banned: true }, may: all })
      .then([banned])
    given([registered])
      .when(update({ banned: true }))
      .then([banned])
  })

  it('tells every part as its events, in one decision: address, profile, role, ban fields', () => {
    given([registered])
      .when(
        update({
          banReason: 'spam',
          role: 'admin',
          name: 'Bea',
          email: 'Bea@Example.com',
          emailVerified: true,
        }),
      )
      .then([
        {
          type: 'user.email-changed',
          data: {
            userId: 'u1',
            previousEmail: 'ada@example.com',
            email: 'bea@example.com',
            emailVerified: true,
          },
        },
        { type: 'user.profile-updated', data: { userId: 'u1', name: 'Bea' } },
        { type: 'user.role-set', data: { userId: 'u1', role: 'admin', previousRole: null } },
        { type: 'user.ban-details-set', data: { userId: 'u1', reason: 'spam', expiresAt: null } },
      ])
  })

  it('verifies the address kept when only emailVerified is given', () => {
    given([registered])
      .when(update({ emailVerified: true }))
      .then([{ type: 'user.email-verified', data: { userId: 'u1', email: 'ada@example.com' } }])
  })
})
