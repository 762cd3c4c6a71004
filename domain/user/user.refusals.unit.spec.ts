/// The refusals the admin and account use cases used to make themselves against the read models,
/// now decided here only, in the words (code, status, message) the API answered with.

import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import type { UserCommand } from './user.commands.js'
import type { UserEvent } from './user.events.js'
import { userDecider } from './user.js'

const { given } = specFor(userDecider)
const NOW = '2030-01-01T00:00:00.000Z'

const registered = (credential: boolean): UserEvent => ({
  type: 'user.registered',
  data: {
    userId: 'u1',
    email: 'ada@example.com',
    name: 'Ada',
    image: null,
    emailVerified: true,
    credential: credential ? { accountId: 'u1', passwordHash: 'salt:hash' } : null,
  },
})
const withPassword = registered(true)
const deleted: UserEvent = { type: 'user.deleted', data: { userId: 'u1', email: 'ada@example.com' } }
const deletionRequested: UserEvent = {
  type: 'user.deletion-requested',
  data: {
    userId: 'u1',
    email: 'ada@example.com',
    requestId: 'r',
    tokenHash: 'd1',
    expiresAt: '2030-01-02T00:00:00.000Z',
    callbackURL: null,
  },
}
const removal = (extra: Partial<Extract<UserCommand, { type: 'delete-user' }>> = {}): UserCommand => ({
  type: 'delete-user',
  proof: { kind: 'verified' },
  ...extra,
})
const requestDeletion = (
  proof: Extract<UserCommand, { type: 'request-deletion' }>['proof'],
): UserCommand => ({
  type: 'request-deletion',
  proof,
  requestId: 'r2',
  tokenHash: 'd2',
  expiresAt: '2030-01-02T00:00:00.000Z',
  callbackURL: null,
  now: NOW,
})

describe('user refusals: an operator acting on users', () => {
  it('refuses an operator banning themselves, and bans another without naming the operator', () => {
    given([withPassword])
      .when({ type: 'ban-user', reason: null, expiresAt: null, operatorId: 'u1' })
      .thenThrows('YOU_CANNOT_BAN_YOURSELF', { status: 400, message: 'You cannot ban yourself' })
    given([withPassword])
      .when({ type: 'ban-user', reason: null, expiresAt: null, operatorId: 'op' })
      .then([{ type: 'user.banned', data: { userId: 'u1', reason: null, expiresAt: null } }])
  })

  it('refuses an operator removing themselves', () =>
    given([withPassword])
      .when(removal({ operatorId: 'u1' }))
      .thenThrows('YOU_CANNOT_REMOVE_YOURSELF', { status: 400, message: 'You cannot remove yourself' }))

  it('refuses every operator command on a user who does not exist, or no longer does', () => {
    const commands: UserCommand[] = [
      { type: 'set-role', role: 'admin' },
      { type: 'ban-user', reason: null, expiresAt: null, operatorId: 'op' },
      { type: 'unban-user' },
      { type: 'admin-set-password', accountId: 'u1', passwordHash: 'h' },
      removal({ operatorId: 'op' }),
    ]
    for (const command of commands) {
      given([]).when(command).thenThrows('USER_NOT_FOUND', { status: 404 })
      given([withPassword, deleted]).when(command).thenThrows('USER_NOT_FOUND', { status: 404 })
    }
  })
})

describe('user refusals: deleting an account', () => {
  it("refuses while the person is an organization's only owner, before their own link's expiry is judged", () => {
    given([withPassword])
      .when(removal({ soleOwnerOf: ['o1'] }))
      .thenThrows('ONLY_OWNER_OF_AN_ORGANIZATION', { status: 400 })
    const afterExpiry = '2030-01-03T00:00:00.000Z'
    given([withPassword, deletionRequested])
      .when(removal({ soleOwnerOf: ['o1'], proof: { kind: 'token', tokenHash: 'd1', now: afterExpiry } }))
      .thenThrows('ONLY_OWNER_OF_AN_ORGANIZATION')
    given([withPassword, deletionRequested])
      .when(removal({ proof: { kind: 'token', tokenHash: 'd1', now: afterExpiry } }))
      .thenThrows('INVALID_TOKEN')
    given([withPassword])
      .when(removal({ soleOwnerOf: [] }))
      .then([{ type: 'user.deleted', data: { userId: 'u1', email: 'ada@example.com' } }])
  })

  it("refuses a token that is not one of the person's links (someone else's) before the owners are counted", () => {
    given([withPassword, deletionRequested])
      .when(removal({ soleOwnerOf: ['o1'], proof: { kind: 'token', tokenHash: 'someone-elses', now: NOW } }))
      .thenThrows('INVALID_TOKEN', { status: 400 })
    given([withPassword])
      .when(removal({ soleOwnerOf: [], proof: { kind: 'token', tokenHash: 'd1', now: NOW } }))
      .thenThrows('INVALID_TOKEN')
    given([withPassword, deletionRequested])
      .when(removal({ soleOwnerOf: [], proof: { kind: 'token', tokenHash: 'd1', now: NOW } }))
      .then([{ type: 'user.deleted', data: { userId: 'u1', email: 'ada@example.com' } }])
  })

  it('refuses a password that does not match, or an account without one, before the owners are counted', () => {
    given([withPassword])
      .when(removal({ proof: { kind: 'password', matches: false }, soleOwnerOf: ['o1'] }))
      .thenThrows('INVALID_PASSWORD', { status: 400 })
    given([registered(false)])
      .when(removal({ proof: { kind: 'password', matches: false } }))
      .thenThrows('CREDENTIAL_ACCOUNT_NOT_FOUND', { status: 400 })
    given([withPassword])
      .when(requestDeletion({ kind: 'password', matches: false }))
      .thenThrows('INVALID_PASSWORD')
    given([registered(false)])
      .when(requestDeletion({ kind: 'password', matches: true }))
      .thenThrows('CREDENTIAL_ACCOUNT_NOT_FOUND')
  })

  it('refuses a session too old to prove anything, and mails a link for a fresh one', () => {
    given([withPassword])
      .when(removal({ proof: { kind: 'fresh-session', fresh: false } }))
      .thenThrows('SESSION_EXPIRED')
    given([withPassword])
      .when(requestDeletion({ kind: 'fresh-session', fresh: false }))
      .thenThrows('SESSION_EXPIRED')
    given([withPassword])
      .when(requestDeletion({ kind: 'fresh-session', fresh: true }))
      .then([
        {
          type: 'user.deletion-requested',
          data: {
            userId: 'u1',
            email: 'ada@example.com',
            requestId: 'r2',
            tokenHash: 'd2',
            expiresAt: '2030-01-02T00:00:00.000Z',
            callbackURL: null,
          },
        },
      ])
  })
})

describe('user refusals: changing the password', () => {
  it('refuses an account without a password before looking at the current one', () =>
    given([registered(false)])
      .when({
        type: 'change-password',
        currentPasswordMatches: false,
        passwordHash: 'h',
        sameAsCurrent: false,
      })
      .thenThrows('CREDENTIAL_ACCOUNT_NOT_FOUND', { status: 400 }))
})
