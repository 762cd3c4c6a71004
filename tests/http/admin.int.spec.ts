/// The admin API over HTTP (better-auth 1.7.5's admin plugin): ADMIN_EMAILS makes the first admin
/// once the address is verified; every route answers 401 without a session and 403 with its own
/// code to a user whose role lacks the permission; users are created, found, updated, given roles,
/// banned (their sessions die at once, every sign-in is refused with better-auth's message, an
/// expired ban lifts itself), given passwords and removed (erased); sessions listed and revoked;
/// every action is an event with the operator as actor.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { userStream } from '../../domain/user/user.js'
import { signEmailToken } from '../../infra/crypto/email-token.js'
import { type Browser, browserFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SECRET = 'test-secret-that-is-long-enough-0123456789'
const PASSWORD = 'correct horse battery'
const BOSS = 'boss@example.com'
const BANNED = {
  code: 'BANNED_USER',
  message:
    'You have been banned from this application. Please contact support if you believe this is an error.',
}

type UserJson = {
  id: string
  email: string
  name: string
  role: string
  banned: boolean
  banReason: string | null
  banExpires: string | null
}

let counter = 0
const uniqueEmail = (prefix = 'person') => `${prefix}-${++counter}@example.com`

describe('admin API (pglite)', () => {
  let tessera: TestTessera
  let admin: Browser
  let adminId: string

  const signUp = async (email = uniqueEmail()) => {
    const browser = browserFor(tessera)
    const response = await browser.post('/sign-up/email', { name: 'Someone', email, password: PASSWORD })
    expect(response.status).toBe(200)
    return { browser, id: (response.json as { user: { id: string } }).user.id, email }
  }
  const verify = async (browser: Browser, email: string) => {
    const token = await signEmailToken(
      SECRET,
      { email, purpose: 'verify-email' },
      { now: new Date(), expiresInSeconds: 600 },
    )
    expect((await browser.get(`/verify-email?token=${token}`)).status).toBeLessThan(400)
  }
  const signIn = (email: string, password = PASSWORD) =>
    browserFor(tessera).post('/sign-in/email', { email, password })
  const eventsOf = async (userId: string) => tessera.store.readStream(userStream(userId))

  beforeAll(async () => {
    tessera = await startTessera({ env: { ADMIN_EMAILS: ` ${BOSS.toUpperCase()} , other@example.com` } })
    const boss = await signUp(BOSS)
    admin = boss.browser
    adminId = boss.id
  })
  afterAll(() => tessera.cleanup())

  it('ADMIN_EMAILS: an unverified address gets nothing; once verified, the admin role, from the system, once', async () => {
    expect((await admin.session())?.user).toMatchObject({ role: 'user' })
    expect((await admin.get('/admin/list-users')).status).toBe(403)
    await verify(admin, BOSS)
    expect((await admin.session())?.user).toMatchObject({ role: 'admin', emailVerified: true })
    const grants = (await eventsOf(adminId)).filter((event) => event.type === 'user.role-set')
    expect(grants).toHaveLength(1)
    expect(grants[0]?.data).toMatchObject({ role: 'admin', previousRole: null, grantedBy: 'admin-emails' })
    expect(grants[0]?.metadata.actor).toEqual({ type: 'system' })
    // An address not listed, verified, stays a user.
    const plain = await signUp()
    await verify(plain.browser, plain.email)
    expect((await plain.browser.session())?.user).toMatchObject({ role: 'user' })
  })

  it("refuses every route without a session (401) and to a plain user (403, the route's code)", async () => {
    const user = await signUp()
    const routes: [string, string, unknown, string][] = [
      ['GET', '/admin/list-users', undefined, 'YOU_ARE_NOT_ALLOWED_TO_LIST_USERS'],
      ['GET', `/admin/get-user?id=${adminId}`, undefined, 'YOU_ARE_NOT_ALLOWED_TO_GET_USER'],
      [
        'POST',
        '/admin/create-user',
        { email: uniqueEmail(), name: 'X', password: PASSWORD },
        'YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS',
      ],
      [
        'POST',
        '/admin/update-user',
        { userId: adminId, data: { name: 'X' } },
        'YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS',
      ],
      [
        'POST',
        '/admin/set-role',
        { userId: user.id, role: 'admin' },
        'YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE',
      ],
      ['POST', '/admin/ban-user', { userId: adminId }, 'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS'],
      ['POST', '/admin/unban-user', { userId: adminId }, 'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS'],
      ['POST', '/admin/impersonate-user', { userId: adminId }, 'YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS'],
      ['POST', '/admin/remove-user', { userId: adminId }, 'YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS'],
      [
        'POST',
        '/admin/set-user-password',
        { userId: adminId, newPassword: 'another password' },
        'YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD',
      ],
      [
        'POST',
        '/admin/list-user-sessions',
        { userId: adminId },
        'YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS',
      ],
      [
        'POST',
        '/admin/revoke-user-session',
        { sessionToken: 'x' },
        'YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS',
      ],
      [
        'POST',
        '/admin/revoke-user-sessions',
        { userId: adminId },
        'YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS',
      ],
    ]
    for (const [method, path, body, code] of routes) {
      const anonymous = await browserFor(tessera).call(method as 'GET' | 'POST', path, body)
      expect(anonymous.status, path).toBe(401)
      expect(anonymous.json, path).toMatchObject({ code: 'UNAUTHORIZED' })
      const refused = await user.browser.call(method as 'GET' | 'POST', path, body)
      expect(refused.status, path).toBe(403)
      expect(refused.json, path).toMatchObject({ code })
    }
    // Nothing changed: the admin is still an admin and was not banned.
    expect((await admin.session())?.user).toMatchObject({ role: 'admin', banned: false })
    // has-permission answers the caller's own permissions, and needs a session.
    expect(
      (await browserFor(tessera).post('/admin/has-permission', { permissions: { user: ['list'] } })).status,
    ).toBe(401)
    expect(
      (await user.browser.post('/admin/has-permission', { permissions: { user: ['list'] } })).json,
    ).toEqual({ error: null, success: false })
    expect(
      (
        await admin.post('/admin/has-permission', {
          permissions: { user: ['list', 'ban'], session: ['revoke'] },
        })
      ).json,
    ).toEqual({ error: null, success: true })
    expect(
      (await admin.post('/admin/has-permission', { permission: { user: ['impersonate-admins'] } })).json,
    ).toEqual({ error: null, success: false })
    // No action asked for a resource grants nothing, as better-auth's role().authorize.
    for (const permissions of [{ user: [] }, { user: [], session: ['revoke'] }])
      expect((await admin.post('/admin/has-permission', { permissions })).json).toEqual({
        error: null,
        success: false,
      })
    // None, or both spellings at once: an invalid body, in better-auth's validator's words.
    for (const body of [{}, { permission: { user: ['list'] }, permissions: { user: ['list'] } }]) {
      const refused = await admin.post('/admin/has-permission', body)
      expect(refused.status).toBe(400)
      expect(refused.json).toEqual({ code: 'VALIDATION_ERROR', message: '[body] Invalid input' })
    }
  })

  it('creates users (with roles, with or without a password), refuses a taken or malformed address', async () => {
    const email = uniqueEmail('created')
    const created = await admin.post('/admin/create-user', {
      email: email.toUpperCase(),
      name: 'Grace',
      password: PASSWORD,
      role: ['user', 'admin'],
    })
    expect(created.status).toBe(200)
    const { user } = created.json as { user: UserJson }
    expect(user).toMatchObject({ email, name: 'Grace', role: 'user,admin', banned: false })
    expect((await signIn(email)).status).toBe(200)
    const registered = (await eventsOf(user.id))[0]
    expect(registered?.metadata.actor).toEqual({ type: 'user', userId: adminId })

    const noPassword = await admin.post('/admin/create-user', { email: uniqueEmail(), name: 'Social only' })
    expect((noPassword.json as { user: UserJson }).user.role).toBe('user')
    const taken = await admin.post('/admin/create-user', { email, name: 'Again', password: PASSWORD })
    expect(taken.status).toBe(400)
    expect(taken.json).toMatchObject({ code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL' })
    const malformed = await admin.post('/admin/create-user', { email: 'not-an-email', name: 'X' })
    expect(malformed.json).toMatchObject({ code: 'INVALID_EMAIL' })
    const unknownRole = await admin.post('/admin/create-user', {
      email: uniqueEmail(),
      name: 'X',
      role: 'root',
    })
    expect(unknownRole.status).toBe(400)
    expect(unknownRole.json).toMatchObject({ code: 'YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE' })
  })

  it("creates users with better-auth's data fields: image, emailVerified, username, the ban; each recorded", async () => {
    const email = uniqueEmail('data')
    const username = `grace_${counter}`
    const created = await admin.post('/admin/create-user', {
      email,
      name: 'Grace',
      password: PASSWORD,
      data: {
        image: 'https://example.com/g.png',
        emailVerified: true,
        username: username.toUpperCase(),
        displayUsername: 'Grace H',
      },
    })
    expect(created.status, JSON.stringify(created.json)).toBe(200)
    const { user } = created.json as { user: UserJson & Record<string, unknown> }
    expect(user).toMatchObject({
      image: 'https://example.com/g.png',
      emailVerified: true,
      username,
      displayUsername: 'Grace H',
    })
    const [registered] = await eventsOf(user.id)
    expect(registered?.data).toMatchObject({
      emailVerified: true,
      image: 'https://example.com/g.png',
      username,
    })
    expect(registered?.metadata.actor).toEqual({ type: 'user', userId: adminId })
    const byUsername = await browserFor(tessera).post('/sign-in/username', { username, password: PASSWORD })
    expect(byUsername.status).toBe(200)
    // Sign-up's username rules and uniqueness hold.
    const again = { email: uniqueEmail(), name: 'X' }
    for (const [name, code] of [
      [username, 'USERNAME_IS_ALREADY_TAKEN'],
      ['ab', 'USERNAME_TOO_SHORT'],
      ['no spaces', 'INVALID_USERNAME'],
    ] as const) {
      const refused = await admin.post('/admin/create-user', { ...again, data: { username: name } })
      expect(refused, name).toMatchObject({ status: 400, json: { code } })
    }

    const bannedEmail = uniqueEmail('banned')
    const banned = await admin.post('/admin/create-user', {
      email: bannedEmail,
      name: 'Mallory',
      password: PASSWORD,
      data: { banned: true, banReason: 'Spam' },
    })
    const bannedUser = (banned.json as { user: UserJson }).user
    expect(bannedUser).toMatchObject({ banned: true, banReason: 'Spam', banExpires: null })
    expect((await signIn(bannedEmail)).json).toEqual(BANNED)
    const ban = (await eventsOf(bannedUser.id)).find((event) => event.type === 'user.banned')
    expect(ban?.metadata.actor).toEqual({ type: 'user', userId: adminId })
    // A field Tessera does not keep is refused, not dropped.
    const unknown = await admin.post('/admin/create-user', { ...again, data: { shoeSize: 42 } })
    expect(unknown).toMatchObject({ status: 400, json: { code: 'VALIDATION_ERROR' } })
  })

  it('finds users: get-user, list-users with search, filter, sort, limit, offset and total', async () => {
    const marker = `zz${Date.now()}`
    const names = ['Charlie', 'Alice', 'Bob']
    const ids: string[] = []
    for (const name of names) {
      const response = await admin.post('/admin/create-user', {
        email: `${name.toLowerCase()}.${marker}@example.com`,
        name: `${name} ${marker}`,
      })
      ids.push((response.json as { user: UserJson }).user.id)
    }
    const got = await admin.get(`/admin/get-user?id=${ids[0]}`)
    expect(got.json).toMatchObject({ id: ids[0], name: `Charlie ${marker}` })
    expect((await admin.get('/admin/get-user?id=nobody')).json).toMatchObject({ code: 'USER_NOT_FOUND' })

    const page = await admin.get(
      `/admin/list-users?searchValue=${marker}&sortBy=name&sortDirection=asc&limit=2`,
    )
    expect(page.status).toBe(200)
    const answer = page.json as { users: UserJson[]; total: number; limit: number; offset?: number }
    expect(answer.total).toBe(3)
    expect(answer.limit).toBe(2)
    expect(answer).not.toHaveProperty('offset')
    expect(answer.users.map((u) => u.name.split(' ')[0])).toEqual(['Alice', 'Bob'])
    const next = (await admin.get(`/admin/list-users?searchValue=${marker}&sortBy=name&limit=2&offset=2`))
      .json as typeof answer
    expect(next.users.map((u) => u.name.split(' ')[0])).toEqual(['Charlie'])
    expect(next.offset).toBe(2)

    const byName = (
      await admin.get(
        `/admin/list-users?searchField=name&searchOperator=starts_with&searchValue=bob%20${marker}`,
      )
    ).json as typeof answer
    expect(byName.users.map((u) => u.id)).toEqual([ids[2]])
    const admins = (await admin.get('/admin/list-users?filterField=role&filterValue=admin'))
      .json as typeof answer
    expect(admins.users.map((u) => u.email)).toContain(BOSS)
    expect(admins.users.every((u) => u.role === 'admin')).toBe(true)
    // A user never given a role holds the default one, and is found by it.
    const plainUsers = (
      await admin.get(`/admin/list-users?filterField=role&filterValue=user&searchValue=${marker}`)
    ).json as typeof answer
    expect(plainUsers.total).toBe(3)
    // A field the users table does not know answers an empty page, as better-auth does.
    expect((await admin.get('/admin/list-users?sortBy=password')).json).toEqual({ users: [], total: 0 })
  })

  it('updates users and sets roles; refuses empty updates, passwords and unknown roles', async () => {
    const { id, browser } = await signUp()
    const updated = await admin.post('/admin/update-user', {
      userId: id,
      data: { name: 'Renamed', role: 'admin' },
    })
    expect(updated.status).toBe(200)
    expect(updated.json).toMatchObject({ id, name: 'Renamed', role: 'admin' })
    expect((await browser.session())?.user).toMatchObject({ name: 'Renamed', role: 'admin' })
    expect((await admin.post('/admin/update-user', { userId: id, data: {} })).json).toMatchObject({
      code: 'NO_DATA_TO_UPDATE',
    })
    expect(
      (await admin.post('/admin/update-user', { userId: id, data: { password: 'x' } })).json,
    ).toMatchObject({
      code: 'PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER',
    })
    expect((await admin.post('/admin/update-user', { userId: 'nobody', data: { name: 'x' } })).status).toBe(
      404,
    )

    const demoted = await admin.post('/admin/set-role', { userId: id, role: 'user' })
    expect((demoted.json as { user: UserJson }).user.role).toBe('user')
    const unknown = await admin.post('/admin/set-role', { userId: id, role: ['user', 'superuser'] })
    expect(unknown.status).toBe(400)
    expect(unknown.json).toMatchObject({ code: 'YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE' })
    expect((await admin.post('/admin/set-role', { userId: 'nobody', role: 'user' })).status).toBe(404)
    const roles = (await eventsOf(id)).filter((event) => event.type === 'user.role-set')
    expect(roles.map((event) => (event.data as { role: string }).role)).toEqual(['admin', 'user'])
    for (const event of roles) expect(event.metadata.actor).toEqual({ type: 'user', userId: adminId })
  })

  it('bans: the open session dies at once, every sign-in is refused with the message; unban lets them in', async () => {
    const { id, email, browser } = await signUp()
    await admin.post('/admin/update-user', { userId: id, data: { name: 'Mallory' } })
    const username = `mallory_${counter}`
    await browser.post('/update-user', { username })
    expect(await browser.session()).not.toBeNull()

    const banned = await admin.post('/admin/ban-user', { userId: id, banReason: 'Spam' })
    expect(banned.status).toBe(200)
    expect((banned.json as { user: UserJson }).user).toMatchObject({
      banned: true,
      banReason: 'Spam',
      banExpires: null,
    })
    expect(await browser.session()).toBeNull()
    for (const attempt of [
      signIn(email),
      browserFor(tessera).post('/sign-in/username', { username, password: PASSWORD }),
    ]) {
      const refused = await attempt
      expect(refused.status).toBe(403)
      expect(refused.json).toEqual(BANNED)
    }
    // A wrong password is still the usual 401: the ban is told only to whoever knows the password.
    expect((await signIn(email, 'wrong password!')).status).toBe(401)
    expect((await admin.post('/admin/ban-user', { userId: adminId })).json).toMatchObject({
      code: 'YOU_CANNOT_BAN_YOURSELF',
    })
    expect((await admin.post('/admin/ban-user', { userId: 'nobody' })).status).toBe(404)
    const ban = (await eventsOf(id)).find((event) => event.type === 'user.banned')
    expect(ban?.metadata.actor).toEqual({ type: 'user', userId: adminId })

    const unbanned = await admin.post('/admin/unban-user', { userId: id })
    expect((unbanned.json as { user: UserJson }).user).toMatchObject({ banned: false, banReason: null })
    expect((await signIn(email)).status).toBe(200)
  })

  it('a ban with an expiry lifts itself at the next sign-in, recorded by the system', async () => {
    const { id, email } = await signUp()
    const banned = await admin.post('/admin/ban-user', { userId: id, banExpiresIn: 5 })
    const { banExpires, banReason } = (banned.json as { user: UserJson }).user
    expect(banReason).toBe('No reason')
    expect(Date.parse(banExpires ?? '')).toBeGreaterThan(Date.now())
    expect((await signIn(email)).status).toBe(403)
    await new Promise((resolve) => setTimeout(resolve, Date.parse(banExpires ?? '') - Date.now() + 100))
    expect((await signIn(email)).status).toBe(200)
    const lifted = (await eventsOf(id)).find((event) => event.type === 'user.unbanned')
    expect(lifted?.data).toMatchObject({ expired: true })
    expect(lifted?.metadata.actor).toEqual({ type: 'system' })
  })

  it('sets a password, lists and revokes sessions (one, then all)', async () => {
    const { id, email, browser } = await signUp()
    expect(
      (await admin.post('/admin/set-user-password', { userId: id, newPassword: 'short' })).json,
    ).toMatchObject({ code: 'PASSWORD_TOO_SHORT' })
    expect(
      (await admin.post('/admin/set-user-password', { userId: id, newPassword: 'a brand new password' }))
        .json,
    ).toEqual({ status: true })
    expect((await signIn(email)).status).toBe(401)
    const second = browserFor(tessera)
    expect((await second.post('/sign-in/email', { email, password: 'a brand new password' })).status).toBe(
      200,
    )

    const listed = await admin.post('/admin/list-user-sessions', { userId: id })
    const { sessions } = listed.json as {
      sessions: { id: string; token: string; userId: string; impersonatedBy: string | null }[]
    }
    expect(sessions).toHaveLength(2)
    expect(sessions.every((s) => s.userId === id && s.impersonatedBy === null)).toBe(true)
    const first = (await browser.session())?.session.id
    expect((await admin.post('/admin/revoke-user-session', { sessionToken: first })).json).toEqual({
      success: true,
    })
    expect(await browser.session()).toBeNull()
    expect(await second.session()).not.toBeNull()
    expect((await admin.post('/admin/revoke-user-sessions', { userId: id })).json).toEqual({ success: true })
    expect(await second.session()).toBeNull()
    const revoked = (await tessera.store.readStream(`session-${first}`)).find(
      (e) => e.type === 'session.revoked',
    )
    expect(revoked?.metadata.actor).toEqual({ type: 'user', userId: adminId })
  })

  it('impersonates: a one-hour session marked impersonatedBy, actions carry both identities, stop returns', async () => {
    const { id, browser: own } = await signUp()
    const operator = browserFor(tessera)
    expect((await operator.post('/sign-in/email', { email: BOSS, password: PASSWORD })).status).toBe(200)
    const before = await operator.session()

    const started = await operator.post('/admin/impersonate-user', { userId: id })
    expect(started.status).toBe(200)
    const answer = started.json as {
      session: { impersonatedBy: string; expiresAt: string; userId: string }
      user: UserJson
    }
    expect(answer.session).toMatchObject({ impersonatedBy: adminId, userId: id })
    const lifetime = Date.parse(answer.session.expiresAt) - Date.now()
    expect(lifetime).toBeGreaterThan(3500_000)
    expect(lifetime).toBeLessThanOrEqual(3600_000)
    expect((await operator.session())?.user.id).toBe(id)
    expect(started.setCookie.some((c) => c.startsWith('better-auth.admin_session='))).toBe(true)

    // The person does not see support's session among their devices.
    const listed = (await own.get('/list-sessions')).json as unknown[]
    expect(listed).toHaveLength(1)

    // An action taken while impersonating: the person is the actor, the operator in the metadata,
    // and the person's activity shows it as done by support.
    expect((await operator.post('/update-user', { name: 'Changed by support' })).status).toBe(200)
    const update = (await eventsOf(id)).find((event) => event.type === 'user.profile-updated')
    expect(update?.metadata).toMatchObject({ actor: { type: 'user', userId: id }, impersonatedBy: adminId })
    const activity = (await own.get('/activity')).json as {
      items: { type: string; details: Record<string, unknown>; ip: string | null }[]
    }
    const entry = activity.items.find((item) => item.type === 'user.profile-updated')
    expect(entry?.details).toMatchObject({ bySupport: true })
    expect(entry?.ip).toBeNull()

    const stopped = await operator.post('/admin/stop-impersonating')
    expect(stopped.status).toBe(200)
    expect((stopped.json as { user: UserJson }).user.id).toBe(adminId)
    const after = await operator.session()
    expect(after?.user.id).toBe(adminId)
    expect(after?.session.id).toBe(before?.session.id)
    expect((await operator.post('/admin/stop-impersonating')).json).toMatchObject({
      code: 'NOT_IMPERSONATING',
    })

    // Another admin may not be impersonated.
    const other = await admin.post('/admin/create-user', {
      email: uniqueEmail(),
      name: 'Admin 2',
      role: 'admin',
    })
    const refused = await operator.post('/admin/impersonate-user', {
      userId: (other.json as { user: UserJson }).user.id,
    })
    expect(refused.status).toBe(403)
    expect(refused.json).toMatchObject({ code: 'YOU_CANNOT_IMPERSONATE_ADMINS' })
    expect((await operator.post('/admin/impersonate-user', { userId: 'nobody' })).status).toBe(404)
  })

  it('removes a user: sessions end, the account is gone and its personal data erased; not oneself', async () => {
    const { id, email, browser } = await signUp()
    expect((await admin.post('/admin/remove-user', { userId: adminId })).json).toMatchObject({
      code: 'YOU_CANNOT_REMOVE_YOURSELF',
    })
    expect((await admin.post('/admin/remove-user', { userId: id })).json).toEqual({ success: true })
    expect(await browser.session()).toBeNull()
    expect((await admin.get(`/admin/get-user?id=${id}`)).status).toBe(404)
    expect((await signIn(email)).status).toBe(401)
    // The person is told, as a self-deletion tells them; the notice's own key (and with it the
    // address it held) is destroyed once the notice is sent, so in the end everything reads erased.
    expect((await eventsOf(id)).map((event) => event.type)).toEqual(
      expect.arrayContaining(['user.deleted', 'user.deletion-notice-requested']),
    )
    await expect
      .poll(async () => (await eventsOf(id)).every((event) => event.metadata.erased === true), {
        timeout: 30_000,
      })
      .toBe(true)
    const events = await eventsOf(id)
    expect(events.every((event) => event.metadata.erased === true)).toBe(true)
    expect(JSON.stringify(events.map(({ data, metadata }) => ({ data, metadata })))).not.toContain(email)
    expect((await admin.post('/admin/remove-user', { userId: id })).status).toBe(404)
  })
})
