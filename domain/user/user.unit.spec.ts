import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { type UserCommand, type UserEvent, userDecider } from './user.js'

const { given } = specFor(userDecider)

const register = (overrides: Partial<Extract<UserCommand, { type: 'register-user' }>> = {}): UserCommand => ({
  type: 'register-user',
  userId: 'u1',
  email: 'Ada@Example.COM ',
  name: ' Ada ',
  image: null,
  credential: { accountId: 'a1', passwordHash: 'salt:hash' },
  sendVerification: false,
  callbackURL: null,
  ...overrides,
})

const registered: UserEvent = {
  type: 'user.registered',
  data: {
    userId: 'u1',
    email: 'ada@example.com',
    name: 'Ada',
    image: null,
    emailVerified: false,
    credential: { accountId: 'a1', passwordHash: 'salt:hash' },
  },
}
const verified: UserEvent = { type: 'user.email-verified', data: { userId: 'u1', email: 'ada@example.com' } }
const resetRequested = (tokenHash: string, expiresAt = '2026-01-01T01:00:00.000Z'): UserEvent => ({
  type: 'user.password-reset-requested',
  data: {
    userId: 'u1',
    email: 'ada@example.com',
    requestId: `r-${tokenHash}`,
    tokenHash,
    expiresAt,
    redirectTo: null,
  },
})

describe('user: register', () => {
  it('registers with a lowercased email, a trimmed name and an unverified email', () =>
    given([]).when(register()).then([registered]))

  it('asks for a verification mail when sign-up sends one', () =>
    given([])
      .when(register({ sendVerification: true, callbackURL: '/welcome' }))
      .then([
        registered,
        {
          type: 'user.verification-email-requested',
          data: { userId: 'u1', email: 'ada@example.com', callbackURL: '/welcome' },
        },
      ]))

  it('refuses a malformed email', () => {
    for (const email of ['', 'no-at-sign', 'a@b', 'a b@example.com', 'a@@example.com', '.a@example.com'])
      given([]).when(register({ email })).thenThrows('INVALID_EMAIL')
  })

  it('refuses to register the same user twice', () =>
    given([registered]).when(register()).thenThrows('USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL'))

  it('knows no other command before registration', () =>
    given([]).when({ type: 'verify-email', email: 'ada@example.com' }).thenThrows('USER_NOT_FOUND'))
})

describe('user: email verification', () => {
  it('sends a verification mail to the own unverified address only', () => {
    given([registered])
      .when({ type: 'request-verification-email', email: 'ADA@example.com', callbackURL: null })
      .then([
        {
          type: 'user.verification-email-requested',
          data: { userId: 'u1', email: 'ada@example.com', callbackURL: null },
        },
      ])
    given([registered])
      .when({ type: 'request-verification-email', email: 'eve@example.com', callbackURL: null })
      .thenThrows('EMAIL_MISMATCH')
    given([registered, verified])
      .when({ type: 'request-verification-email', email: 'ada@example.com', callbackURL: null })
      .thenThrows('EMAIL_ALREADY_VERIFIED')
  })

  it('verifies the current address once', () => {
    given([registered]).when({ type: 'verify-email', email: 'ada@example.com' }).then([verified])
    given([registered, verified]).when({ type: 'verify-email', email: 'ada@example.com' }).then([])
  })

  it('refuses a link for an address the user no longer has', () =>
    given([registered]).when({ type: 'verify-email', email: 'old@example.com' }).thenThrows('INVALID_TOKEN'))
})

describe('user: password reset', () => {
  const reset = (
    tokenHash: string,
    now = '2026-01-01T00:30:00.000Z',
    sameAsCurrent = false,
  ): UserCommand => ({
    type: 'reset-password',
    tokenHash,
    passwordHash: 'new:hash',
    now,
    sameAsCurrent,
  })
  const resetDone: UserEvent = {
    type: 'user.password-reset',
    data: { userId: 'u1', tokenHash: 'h1', passwordHash: 'new:hash' },
  }

  it('resets with a live token', () =>
    given([registered, resetRequested('h1')])
      .when(reset('h1'))
      .then([resetDone]))
  it('refuses an unknown token', () =>
    given([registered, resetRequested('h1')])
      .when(reset('h2'))
      .thenThrows('INVALID_TOKEN'))
  it('refuses the current password as the new one, and the token stays usable', () => {
    given([registered, resetRequested('h1')])
      .when(reset('h1', undefined, true))
      .thenThrows('PASSWORD_SAME_AS_CURRENT')
    given([registered, resetRequested('h1')])
      .when(reset('h1'))
      .then([resetDone])
  })
  it('refuses an expired token', () =>
    given([registered, resetRequested('h1')])
      .when(reset('h1', '2026-01-01T01:00:00.000Z'))
      .thenThrows('INVALID_TOKEN'))
  it('uses a token once, and a reset voids the other outstanding tokens', () => {
    given([registered, resetRequested('h1'), resetDone])
      .when(reset('h1'))
      .thenThrows('INVALID_TOKEN')
    given([registered, resetRequested('h1'), resetRequested('h2'), resetDone])
      .when(reset('h2'))
      .thenThrows('INVALID_TOKEN')
  })
})

describe('user: credentials and profile', () => {
  it('changes the password when the current one matched', () => {
    given([registered])
      .when({
        type: 'change-password',
        currentPasswordMatches: true,
        passwordHash: 'n:h',
        sameAsCurrent: false,
      })
      .then([{ type: 'user.password-changed', data: { userId: 'u1', passwordHash: 'n:h' } }])
    given([registered])
      .when({
        type: 'change-password',
        currentPasswordMatches: false,
        passwordHash: 'n:h',
        sameAsCurrent: false,
      })
      .thenThrows('INVALID_PASSWORD')
  })

  it('refuses a new password equal to the current one', () =>
    given([registered])
      .when({
        type: 'change-password',
        currentPasswordMatches: true,
        passwordHash: 'n:h',
        sameAsCurrent: true,
      })
      .thenThrows('PASSWORD_SAME_AS_CURRENT'))

  it('sets a password only for a user without one', () => {
    given([registered])
      .when({ type: 'set-password', accountId: 'a9', passwordHash: 'n:h' })
      .thenThrows('PASSWORD_ALREADY_SET')
    given([{ ...registered, data: { ...registered.data, credential: null } }])
      .when({ type: 'set-password', accountId: 'a9', passwordHash: 'n:h' })
      .then([{ type: 'user.password-set', data: { userId: 'u1', accountId: 'a9', passwordHash: 'n:h' } }])
  })

  it('unlinks the password (the credential account) unless it is the last way to sign in', () => {
    const remove = (otherAccounts: number, allowUnlinkingAll = false): UserCommand => ({
      type: 'remove-password',
      otherAccounts,
      allowUnlinkingAll,
      sessionFresh: true,
    })
    given([registered])
      .when(remove(1))
      .then([{ type: 'user.password-removed', data: { userId: 'u1', accountId: 'a1' } }])
    given([registered]).when(remove(0)).thenThrows('FAILED_TO_UNLINK_LAST_ACCOUNT')
    given([registered])
      .when(remove(0, true))
      .then([{ type: 'user.password-removed', data: { userId: 'u1', accountId: 'a1' } }])
    const removed: UserEvent = { type: 'user.password-removed', data: { userId: 'u1', accountId: 'a1' } }
    // Gone once removed; with a single social account left, the count answers first (as better-auth).
    given([registered, removed]).when(remove(2)).thenThrows('ACCOUNT_NOT_FOUND')
    given([registered, removed]).when(remove(1)).thenThrows('FAILED_TO_UNLINK_LAST_ACCOUNT')
    given([registered, removed])
      .when({
        type: 'change-password',
        currentPasswordMatches: true,
        passwordHash: 'n:h',
        sameAsCurrent: false,
      })
      .thenThrows('CREDENTIAL_ACCOUNT_NOT_FOUND')
  })

  it('unlinks the password only for a session fresh enough, before the last-account rule', () => {
    const stale: Extract<UserCommand, { type: 'remove-password' }> = {
      type: 'remove-password',
      otherAccounts: 1,
      allowUnlinkingAll: false,
      sessionFresh: false,
    }
    given([registered])
      .when(stale)
      .thenThrows('SESSION_NOT_FRESH', { status: 403, message: 'Session is not fresh' })
    given([registered])
      .when({ ...stale, otherAccounts: 0 })
      .thenThrows('SESSION_NOT_FRESH')
  })

  it('registers an address a provider vouched for as verified', () =>
    given([])
      .when(register({ credential: null, emailVerified: true }))
      .then([{ ...registered, data: { ...registered.data, credential: null, emailVerified: true } }]))

  it('updates only what changed', () => {
    given([registered])
      .when({ type: 'update-profile', name: ' Ada L. ', image: null })
      .then([{ type: 'user.profile-updated', data: { userId: 'u1', name: 'Ada L.' } }])
    given([registered]).when({ type: 'update-profile', name: 'Ada' }).then([])
    given([registered]).when({ type: 'update-profile' }).thenThrows('NO_FIELDS_TO_UPDATE')
  })
})

describe('user: change email', () => {
  const change = (newEmail: string, takenByAnother?: boolean): UserCommand => ({
    type: 'change-email',
    newEmail,
    callbackURL: '/cb',
    ...(takenByAnother !== undefined ? { takenByAnother } : {}),
  })

  it('refuses the same address', () =>
    given([registered]).when(change('ADA@example.com')).thenThrows('EMAIL_IS_THE_SAME'))

  it('refuses an address that is not one, before comparing it', () =>
    given([registered]).when(change('ada@')).thenThrows('INVALID_EMAIL'))

  it("refuses the same address even when it is reported as someone else's", () =>
    given([registered]).when(change('ada@example.com', true)).thenThrows('EMAIL_IS_THE_SAME'))

  it("changes nothing, and mails no one, when the address is someone else's", () =>
    given([registered]).when(change('taken@example.com', true)).then([]))

  it('changes an unverified address at once and asks the new one to verify', () =>
    given([registered])
      .when(change('new@example.com'))
      .then([
        {
          type: 'user.email-changed',
          data: {
            userId: 'u1',
            previousEmail: 'ada@example.com',
            email: 'new@example.com',
            emailVerified: false,
          },
        },
        {
          type: 'user.verification-email-requested',
          data: { userId: 'u1', email: 'new@example.com', callbackURL: '/cb' },
        },
      ]))

  it('asks a verified address to confirm, then the new one to verify', () => {
    const requested: UserEvent = {
      type: 'user.email-change-requested',
      data: {
        userId: 'u1',
        currentEmail: 'ada@example.com',
        newEmail: 'new@example.com',
        callbackURL: '/cb',
      },
    }
    const confirmed: UserEvent = {
      type: 'user.email-change-confirmed',
      data: {
        userId: 'u1',
        currentEmail: 'ada@example.com',
        newEmail: 'new@example.com',
        callbackURL: '/cb',
      },
    }
    given([registered, verified]).when(change('new@example.com')).then([requested])
    given([registered, verified, requested])
      .when({
        type: 'confirm-email-change',
        currentEmail: 'ada@example.com',
        newEmail: 'new@example.com',
        callbackURL: '/cb',
      })
      .then([confirmed])
    given([registered, verified, requested, confirmed])
      .when({ type: 'complete-email-change', currentEmail: 'ada@example.com', newEmail: 'new@example.com' })
      .then([
        {
          type: 'user.email-changed',
          data: {
            userId: 'u1',
            previousEmail: 'ada@example.com',
            email: 'new@example.com',
            emailVerified: true,
          },
        },
      ])
    // Skipping the confirmation by the current address does not work.
    given([registered, verified, requested])
      .when({ type: 'complete-email-change', currentEmail: 'ada@example.com', newEmail: 'new@example.com' })
      .thenThrows('INVALID_TOKEN')
  })
})

describe('user: deletion', () => {
  const requested: UserEvent = {
    type: 'user.deletion-requested',
    data: {
      userId: 'u1',
      email: 'ada@example.com',
      requestId: 'r',
      tokenHash: 'd1',
      expiresAt: '2026-01-02T00:00:00.000Z',
      callbackURL: null,
    },
  }
  const deleted: UserEvent = { type: 'user.deleted', data: { userId: 'u1', email: 'ada@example.com' } }

  it('deletes with a verified proof', () =>
    given([registered])
      .when({ type: 'delete-user', proof: { kind: 'verified' } })
      .then([deleted]))
  it('deletes with a live mailed token, and only then', () => {
    given([registered, requested])
      .when({
        type: 'delete-user',
        proof: { kind: 'token', tokenHash: 'd1', now: '2026-01-01T12:00:00.000Z' },
      })
      .then([deleted])
    given([registered, requested])
      .when({
        type: 'delete-user',
        proof: { kind: 'token', tokenHash: 'd1', now: '2026-01-02T00:00:00.000Z' },
      })
      .thenThrows('INVALID_TOKEN')
    given([registered, requested])
      .when({
        type: 'delete-user',
        proof: { kind: 'token', tokenHash: 'x', now: '2026-01-01T12:00:00.000Z' },
      })
      .thenThrows('INVALID_TOKEN')
  })
  it('is gone once deleted', () =>
    given([registered, deleted]).when({ type: 'update-profile', name: 'X' }).thenThrows('USER_NOT_FOUND'))
  it("names the other keys the deletion erases (the address's invitee keys)", () =>
    given([registered])
      .when({ type: 'delete-user', proof: { kind: 'verified' }, alsoErases: ['invitee:k', 'invitee:k:1'] })
      .then([{ type: 'user.deleted', data: { ...deleted.data, alsoErases: ['invitee:k', 'invitee:k:1'] } }]))
})

describe('user: expired tokens', () => {
  const requested: UserEvent = {
    type: 'user.password-reset-requested',
    data: {
      userId: 'u1',
      email: 'ada@example.com',
      requestId: 'r',
      tokenHash: 'h1',
      expiresAt: '2026-01-01T01:00:00.000Z',
      redirectTo: null,
    },
  }
  it('discards an expired token, and only an expired one', () => {
    given([registered, requested])
      .when({ type: 'discard-token', tokenHash: 'h1', now: '2026-01-01T02:00:00.000Z' })
      .then([{ type: 'user.token-discarded', data: { userId: 'u1', tokenHash: 'h1' } }])
    given([registered, requested])
      .when({ type: 'discard-token', tokenHash: 'h1', now: '2026-01-01T00:00:00.000Z' })
      .then([])
    given([registered, requested])
      .when({ type: 'discard-token', tokenHash: 'zz', now: '2026-01-01T02:00:00.000Z' })
      .then([])
  })
})

describe('user: failed sign-ins', () => {
  const failedAt = (at: string): UserEvent => ({
    type: 'user.sign-in-failed',
    data: { userId: 'u1', failedAt: at },
  })
  const failure = (now: string): UserCommand => ({ type: 'record-sign-in-failure', now })

  it('records a failed sign-in, with nothing but its time', () =>
    given([registered])
      .when(failure('2026-01-01T10:00:00.000Z'))
      .then([failedAt('2026-01-01T10:00:00.000Z')]))

  it('records at most one a minute, however many guesses come in between', () => {
    given([registered, failedAt('2026-01-01T10:00:00.000Z')])
      .when(failure('2026-01-01T10:00:59.999Z'))
      .then([])
    given([registered, failedAt('2026-01-01T10:00:00.000Z')])
      .when(failure('2026-01-01T10:01:00.000Z'))
      .then([failedAt('2026-01-01T10:01:00.000Z')])
  })

  it('counts the minute from the last one recorded, not from the guesses left out', () =>
    given([registered, failedAt('2026-01-01T10:00:00.000Z'), failedAt('2026-01-01T10:01:30.000Z')])
      .when(failure('2026-01-01T10:02:00.000Z'))
      .then([]))

  it('records nothing for an account that is gone', () =>
    given([registered, { type: 'user.deleted', data: { userId: 'u1', email: 'ada@example.com' } }])
      .when(failure('2026-01-01T10:00:00.000Z'))
      .thenThrows('USER_NOT_FOUND'))
})
