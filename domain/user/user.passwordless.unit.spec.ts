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
      .when({
        type: 'change-email-by-code',
        currentEmail: 'ada@example.com',
        newEmail: 'Ada@New.example',
        sessionFresh: true,
      })
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
      .when({
        type: 'change-email-by-code',
        currentEmail: 'old@example.com',
        newEmail: 'ada@new.example',
        sessionFresh: true,
      })
      .then([])
  })
})

describe("a change of address by code: the refusals, in better-auth's order", () => {
  const move = (overrides: { newEmail?: string; sessionFresh?: boolean; takenByAnother?: boolean } = {}) => ({
    type: 'change-email-by-code' as const,
    currentEmail: 'ada@example.com',
    newEmail: 'ada@new.example',
    sessionFresh: true,
    ...overrides,
  })

  it('refuses a session past its fresh age first', () => {
    given([registered(true, true)])
      .when(move({ sessionFresh: false, newEmail: 'nope', takenByAnother: true }))
      .thenThrows('SESSION_NOT_FRESH', { status: 403 })
  })

  it('refuses a malformed address, then the same address', () => {
    given([registered(true, true)])
      .when(move({ newEmail: 'nope', takenByAnother: true }))
      .thenThrows('INVALID_EMAIL')
    given([registered(true, true)])
      .when(move({ newEmail: ' ADA@example.com', takenByAnother: true }))
      .thenThrows('EMAIL_IS_THE_SAME', { status: 400 })
  })

  it("refuses an address that is someone else's, once the caller has looked", () => {
    given([registered(true, true)])
      .when(move({ takenByAnother: true }))
      .thenThrows('EMAIL_ALREADY_IN_USE', { status: 400, message: 'Email already in use' })
  })

  it('asked ahead, before the owner is looked up, lets a free-looking move through', () => {
    given([registered(true, true)])
      .when(move())
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
  })
})
