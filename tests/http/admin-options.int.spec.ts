/// The admin plugin's options in the config file (`admin`, better-auth's names) are honoured:
/// bannedUserMessage, defaultBanReason, defaultBanExpiresIn, impersonationSessionDuration,
/// allowImpersonatingAdmins, adminRoles and defaultRole over HTTP (adminUserIds: the pure rule in
/// domain/session/session.impersonation.unit.spec.ts, as a user's id exists only once they signed up).
/// And has-permission through the server API: a server key asks about a user or a role.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Browser, browserFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SERVER_KEY = 'backend-key-0123456789abcdef0123456789'
const PASSWORD = 'correct horse battery'
const MINUTE = 60_000

let counter = 0
const uniqueEmail = () => `option-${++counter}@example.com`

type UserJson = { id: string; banned: boolean; banReason: string | null; banExpires: string | null }

const people = (tessera: () => TestTessera) => {
  const server = (path: string, body: unknown, key = SERVER_KEY) =>
    tessera().api.request('POST', path, body, { 'x-tessera-server-key': key })
  const signUp = async (): Promise<{ browser: Browser; id: string; email: string; role: string }> => {
    const browser = browserFor(tessera())
    const email = uniqueEmail()
    const response = await browser.post('/sign-up/email', { name: 'Someone', email, password: PASSWORD })
    expect(response.status).toBe(200)
    const { user } = response.json as { user: { id: string; role: string } }
    return { browser, id: user.id, email, role: user.role }
  }
  const admin = async () => {
    const person = await signUp()
    expect((await server('/admin/set-role', { userId: person.id, role: 'admin' })).status).toBe(200)
    return person
  }
  return { server, signUp, admin }
}

const expiresIn = (iso: string | null) => (iso === null ? Number.NaN : Date.parse(iso) - Date.now())

describe('admin options (pglite)', () => {
  let tessera: TestTessera
  const { server, signUp, admin } = people(() => tessera)
  beforeAll(async () => {
    tessera = await startTessera({
      env: { SERVER_KEYS: `ops=${SERVER_KEY}` },
      features: {
        admin: {
          bannedUserMessage: 'This account is suspended; write to help@example.com.',
          defaultBanReason: 'Terms of service',
          defaultBanExpiresIn: 7200,
          impersonationSessionDuration: 600,
          allowImpersonatingAdmins: true,
        },
      },
    })
  }, 240_000)
  afterAll(() => tessera?.cleanup())

  it('defaultBanReason and defaultBanExpiresIn stand in for what the operator left out', async () => {
    const target = await signUp()
    const banned = await server('/admin/ban-user', { userId: target.id })
    expect(banned.status).toBe(200)
    const { user } = banned.json as { user: UserJson }
    expect(user).toMatchObject({ banned: true, banReason: 'Terms of service' })
    expect(expiresIn(user.banExpires)).toBeGreaterThan(7200_000 - MINUTE)
    expect(expiresIn(user.banExpires)).toBeLessThanOrEqual(7200_000)
    // What the operator gives wins.
    const other = await signUp()
    const given = await server('/admin/ban-user', { userId: other.id, banReason: 'Spam', banExpiresIn: 60 })
    const explicit = (given.json as { user: UserJson }).user
    expect(explicit.banReason).toBe('Spam')
    expect(expiresIn(explicit.banExpires)).toBeLessThanOrEqual(60_000)
  })

  it('bannedUserMessage is what a banned person is told, with better-auth’s code and status', async () => {
    const target = await signUp()
    expect((await server('/admin/ban-user', { userId: target.id })).status).toBe(200)
    const refused = await browserFor(tessera).post('/sign-in/email', {
      email: target.email,
      password: PASSWORD,
    })
    expect(refused).toMatchObject({
      status: 403,
      json: { code: 'BANNED_USER', message: 'This account is suspended; write to help@example.com.' },
    })
  })

  it('impersonationSessionDuration bounds the session; allowImpersonatingAdmins lets an admin act as another', async () => {
    const operator = await admin()
    const otherAdmin = await admin()
    const started = await operator.browser.post('/admin/impersonate-user', { userId: otherAdmin.id })
    expect(started.status).toBe(200)
    const { session } = started.json as { session: { expiresAt: string; impersonatedBy: string } }
    expect(session.impersonatedBy).toBe(operator.id)
    expect(expiresIn(session.expiresAt)).toBeGreaterThan(600_000 - MINUTE)
    expect(expiresIn(session.expiresAt)).toBeLessThanOrEqual(600_000)
  })

  it('has-permission through the server API: about a user by id, or about a role', async () => {
    const operator = await admin()
    const plain = await signUp()
    const ask = (body: object) => server('/admin/has-permission', body)
    const banAndRevoke = { user: ['ban'], session: ['revoke'] }
    expect((await ask({ userId: operator.id, permissions: banAndRevoke })).json).toEqual({
      error: null,
      success: true,
    })
    expect((await ask({ userId: plain.id, permissions: { user: ['list'] } })).json).toEqual({
      error: null,
      success: false,
    })
    expect((await ask({ role: 'admin', permission: { user: ['impersonate'] } })).json).toMatchObject({
      success: true,
    })
    expect((await ask({ role: 'admin', permissions: { user: ['impersonate-admins'] } })).json).toMatchObject({
      success: false,
    })
    expect(await ask({ userId: 'no-such-user', permissions: { user: ['list'] } })).toMatchObject({
      status: 404,
      json: { code: 'USER_NOT_FOUND' },
    })
    expect(await ask({ permissions: { user: ['list'] } })).toMatchObject({ status: 404 })
    // A wrong key is no key: without a session, 401.
    expect(
      await server(
        '/admin/has-permission',
        { role: 'admin', permissions: { user: ['list'] } },
        'wrong-key-0123456789abcdef0123456789',
      ),
    ).toMatchObject({ status: 401 })
  })
})

describe('admin options: adminRoles (pglite)', () => {
  let tessera: TestTessera
  const { signUp, admin } = people(() => tessera)
  beforeAll(async () => {
    tessera = await startTessera({
      env: { SERVER_KEYS: `ops=${SERVER_KEY}` },
      features: { admin: { adminRoles: ['admin', 'user'] } },
    })
  }, 240_000)
  afterAll(() => tessera?.cleanup())

  it('holders of a role listed in adminRoles are protected from impersonation as admins are', async () => {
    const operator = await admin()
    const plain = await signUp()
    expect(await operator.browser.post('/admin/impersonate-user', { userId: plain.id })).toMatchObject({
      status: 403,
      json: { code: 'YOU_CANNOT_IMPERSONATE_ADMINS' },
    })
  })
})

describe('admin options: defaultRole (pglite)', () => {
  let tessera: TestTessera
  const { server, signUp } = people(() => tessera)
  beforeAll(async () => {
    tessera = await startTessera({
      env: { SERVER_KEYS: `ops=${SERVER_KEY}` },
      features: { admin: { defaultRole: 'admin' } },
    })
  }, 240_000)
  afterAll(() => tessera?.cleanup())

  it('a new account gets the default role, stored by the system; an explicit role still wins', async () => {
    const person = await signUp()
    // The sign-up's own answer shows it too: the role was set after the registration's row was made.
    expect(person.role).toBe('admin')
    expect((await person.browser.session())?.user).toMatchObject({ role: 'admin' })
    const grants = (await tessera.store.readStream(`user-${person.id}`)).filter(
      (event) => event.type === 'user.role-set',
    )
    expect(grants.map((event) => [event.data, event.metadata.actor])).toEqual([
      [{ userId: person.id, role: 'admin', previousRole: null }, { type: 'system' }],
    ])
    // The default role is a role like any: it opens the admin API.
    expect((await person.browser.get('/admin/list-users')).status).toBe(200)

    const created = await server('/admin/create-user', {
      email: uniqueEmail(),
      password: PASSWORD,
      name: 'Created',
      role: 'user',
    })
    expect(created.status).toBe(200)
    expect((created.json as { user: { role: string } }).user.role).toBe('user')
    const defaulted = await server('/admin/create-user', {
      email: uniqueEmail(),
      password: PASSWORD,
      name: 'Plain',
    })
    expect((defaulted.json as { user: { role: string } }).user.role).toBe('admin')
  })
})
