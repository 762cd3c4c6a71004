import { describe, expect, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { banStanding } from './ban.js'
import { type UserEvent, userDecider } from './user.js'

const { given } = specFor(userDecider)

const registered: UserEvent = {
  type: 'user.registered',
  data: {
    userId: 'u1',
    email: 'ada@example.com',
    name: 'Ada',
    image: null,
    emailVerified: true,
    credential: { accountId: 'a1', passwordHash: 'salt:hash' },
  },
}
const socialOnly: UserEvent = { ...registered, data: { ...registered.data, credential: null } } as UserEvent
const banned = (expiresAt: string | null): UserEvent => ({
  type: 'user.banned',
  data: { userId: 'u1', reason: 'spam', expiresAt },
})
const roleSet = (role: string, previousRole: string | null, grantedBy?: 'admin-emails'): UserEvent => ({
  type: 'user.role-set',
  data: { userId: 'u1', role, previousRole, ...(grantedBy ? { grantedBy } : {}) },
})

describe('user: bans', () => {
  it('bans with a reason and an expiry', () =>
    given([registered])
      .when({ type: 'ban-user', reason: 'spam', expiresAt: '2026-02-01T00:00:00.000Z' })
      .then([banned('2026-02-01T00:00:00.000Z')]))

  it('unbans a banned user', () =>
    given([registered, banned(null)])
      .when({ type: 'unban-user' })
      .then([{ type: 'user.unbanned', data: { userId: 'u1', expired: false } }]))

  it('unbanning someone not banned changes nothing', () =>
    given([registered]).when({ type: 'unban-user' }).then([]))

  it('an expired ban lifts itself', () =>
    given([registered, banned('2026-01-01T00:00:00.000Z')])
      .when({ type: 'lift-expired-ban', now: '2026-01-01T00:00:01.000Z' })
      .then([{ type: 'user.unbanned', data: { userId: 'u1', expired: true } }]))

  it('a ban still in force does not lift itself', () =>
    given([registered, banned('2026-01-02T00:00:00.000Z')])
      .when({ type: 'lift-expired-ban', now: '2026-01-01T00:00:00.000Z' })
      .then([]))

  it('a ban without expiry never lifts itself', () =>
    given([registered, banned(null)])
      .when({ type: 'lift-expired-ban', now: '2099-01-01T00:00:00.000Z' })
      .then([]))

  const detailsSet = (reason: string | null, expiresAt: string | null): UserEvent => ({
    type: 'user.ban-details-set',
    data: { userId: 'u1', reason, expiresAt },
  })

  it("update-user's ban fields alone set the reason and end without banning", () =>
    given([registered])
      .when({ type: 'admin-update-ban', reason: 'later' })
      .then([detailsSet('later', null)]))

  it('banned:true alone keeps the stored reason and end (none: null, as better-auth)', () => {
    given([registered])
      .when({ type: 'admin-update-ban', banned: true })
      .then([{ type: 'user.banned', data: { userId: 'u1', reason: null, expiresAt: null } }])
    given([registered, detailsSet('later', '2099-01-01T00:00:00.000Z')])
      .when({ type: 'admin-update-ban', banned: true })
      .then([
        {
          type: 'user.banned',
          data: { userId: 'u1', reason: 'later', expiresAt: '2099-01-01T00:00:00.000Z' },
        },
      ])
  })

  it('banned:false lifts the ban, then writes what else was given', () =>
    given([registered, banned(null)])
      .when({ type: 'admin-update-ban', banned: false, reason: 'appealed' })
      .then([
        { type: 'user.unbanned', data: { userId: 'u1', expired: false } },
        detailsSet('appealed', null),
      ]))

  it('ban fields as they already stand change nothing', () =>
    given([registered, detailsSet('later', null)])
      .when({ type: 'admin-update-ban', reason: 'later', banned: false })
      .then([]))

  it('unban clears a reason set without a ban', () =>
    given([registered, detailsSet('later', null)])
      .when({ type: 'unban-user' })
      .then([detailsSet(null, null)]))

  it('a reason set without a ban never lifts anything', () =>
    given([registered, detailsSet(null, '2026-01-01T00:00:00.000Z')])
      .when({ type: 'lift-expired-ban', now: '2026-02-01T00:00:00.000Z' })
      .then([]))

  it('a deleted user cannot be banned', () =>
    given([registered, { type: 'user.deleted', data: { userId: 'u1', email: 'ada@example.com' } }])
      .when({ type: 'ban-user', reason: 'x', expiresAt: null })
      .thenThrows('USER_NOT_FOUND'))
})

describe('ban standing (every way in asks it)', () => {
  const now = new Date('2026-01-01T12:00:00.000Z')
  it('not banned', () => expect(banStanding({ banned: false, banExpires: null }, now)).toBe('none'))
  it('banned for good', () => expect(banStanding({ banned: true, banExpires: null }, now)).toBe('banned'))
  it('banned until later', () =>
    expect(banStanding({ banned: true, banExpires: '2026-01-01T12:00:01.000Z' }, now)).toBe('banned'))
  it('a ban past its expiry has lapsed', () =>
    expect(banStanding({ banned: true, banExpires: new Date('2026-01-01T12:00:00.000Z') }, now)).toBe(
      'expired',
    ))
})

describe('user: roles', () => {
  it('sets roles', () =>
    given([registered])
      .when({ type: 'set-role', role: 'admin' })
      .then([roleSet('admin', null)]))

  it('setting the roles the user has changes nothing', () =>
    given([registered, roleSet('admin', null)])
      .when({ type: 'set-role', role: 'admin' })
      .then([]))

  it('ADMIN_EMAILS grants once per account', () =>
    given([registered])
      .when({ type: 'set-role', role: 'admin', grantedBy: 'admin-emails' })
      .then([roleSet('admin', null, 'admin-emails')]))

  it('ADMIN_EMAILS does not overrule an admin who demoted the account', () =>
    given([registered, roleSet('admin', null, 'admin-emails'), roleSet('user', 'admin')])
      .when({ type: 'set-role', role: 'admin', grantedBy: 'admin-emails' })
      .then([]))
})

describe('user: operator password and email', () => {
  it('replaces an existing password without proof', () =>
    given([registered])
      .when({ type: 'admin-set-password', accountId: 'u1', passwordHash: 'new' })
      .then([{ type: 'user.password-changed', data: { userId: 'u1', passwordHash: 'new' } }]))

  it('gives a first password to a user without one', () =>
    given([socialOnly])
      .when({ type: 'admin-set-password', accountId: 'u1', passwordHash: 'new' })
      .then([{ type: 'user.password-set', data: { userId: 'u1', accountId: 'u1', passwordHash: 'new' } }]))

  it('changes the address, verified as the operator says', () =>
    given([registered])
      .when({ type: 'admin-set-email', newEmail: 'Grace@Example.com', emailVerified: false })
      .then([
        {
          type: 'user.email-changed',
          data: {
            userId: 'u1',
            previousEmail: 'ada@example.com',
            email: 'grace@example.com',
            emailVerified: false,
          },
        },
      ]))
})
