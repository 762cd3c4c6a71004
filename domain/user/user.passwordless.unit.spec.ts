import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import type { UserEvent } from './user.events.js'
import { userDecider } from './user.js'

const { given } = specFor(userDecider)

const registered = (emailVerified: boolean, withPassword: boolean): UserEvent => ({
  type: 'user.registered',
  data: {
    userId: 'u1',
    email: 'ada@example.com',
    name: 'Ada',
    image: null,
    emailVerified,
    credential: withPassword ? { accountId: 'a1', passwordHash: 'old' } : null,
  },
})

describe('a proof by mail on the account', () => {
  it('ends the password of an account that had not proven its address, and verifies the address', () => {
    given([registered(false, true)])
      .when({ type: 'prove-address-by-mail', email: 'ada@example.com' })
      .then([
        { type: 'user.password-removed', data: { userId: 'u1', accountId: 'a1' } },
        { type: 'user.email-verified', data: { userId: 'u1', email: 'ada@example.com' } },
      ])
  })

  it('changes nothing on an account whose address was proven', () => {
    given([registered(true, true)])
      .when({ type: 'prove-address-by-mail', email: 'ada@example.com' })
      .then([])
  })

  it('resets the password with a code, or gives the first one, verifying the address', () => {
    given([registered(true, true)])
      .when({ type: 'reset-password-by-code', codeHash: 'c1', accountId: 'a2', passwordHash: 'new' })
      .then([{ type: 'user.password-reset', data: { userId: 'u1', tokenHash: 'c1', passwordHash: 'new' } }])
    given([registered(false, false)])
      .when({ type: 'reset-password-by-code', codeHash: 'c1', accountId: 'a2', passwordHash: 'new' })
      .then([
        { type: 'user.password-set', data: { userId: 'u1', accountId: 'a2', passwordHash: 'new' } },
        { type: 'user.email-verified', data: { userId: 'u1', email: 'ada@example.com' } },
      ])
  })

  it('moves the account to the new address, verified, only from the address the code was for', () => {
    given([registered(true, true)])
      .when({ type: 'change-email-by-code', currentEmail: 'ada@example.com', newEmail: 'Ada@New.example' })
      .then([
        {
          type: 'user.email-changed',
          data: {
            userId: 'u1',
            previousEmail: 'ada@example.com',
            email: 'ada@new.example',
            emailVerified: true,
          },
        },
      ])
    given([registered(true, true)])
      .when({ type: 'change-email-by-code', currentEmail: 'old@example.com', newEmail: 'ada@new.example' })
      .then([])
  })
})
