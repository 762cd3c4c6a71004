/// Compatibility: better-auth 1.7.5's client with its `adminClient` plugin drives a Tessera on
/// loopback as an operator would: the first admin from ADMIN_EMAILS, then every admin action the
/// plugin offers, its refusals, impersonation and back, and the plugin's local role check.

import { createAuthClient } from 'better-auth/client'
import { adminClient } from 'better-auth/client/plugins'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signEmailToken } from '../../infra/crypto/email-token.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { browserCookies } from './browser-cookies.js'

const SECRET = 'test-secret-that-is-long-enough-0123456789'
const PASSWORD = 'correct horse battery'
const BOSS = 'boss@example.com'

const device = (tessera: TestTessera) => {
  const { jar, fetchOptions } = browserCookies(tessera)
  const client = createAuthClient({ baseURL: tessera.baseUrl, plugins: [adminClient()], fetchOptions })
  return { jar, client }
}

describe('better-auth 1.7.5 adminClient against Tessera (pglite, loopback)', () => {
  let tessera: TestTessera
  let operator: ReturnType<typeof device>
  let operatorId: string

  beforeAll(async () => {
    tessera = await startTessera({ listen: true, env: { ADMIN_EMAILS: BOSS } })
    operator = device(tessera)
    const signUp = await operator.client.signUp.email({ name: 'Boss', email: BOSS, password: PASSWORD })
    operatorId = signUp.data?.user.id ?? ''
    const token = await signEmailToken(
      SECRET,
      { email: BOSS, purpose: 'verify-email' },
      { now: new Date(), expiresInSeconds: 600 },
    )
    await operator.client.verifyEmail({ query: { token } })
  })
  afterAll(() => tessera.cleanup())

  it('manages users: create, list, get, update, set role, set password, remove', async () => {
    const { client } = operator
    expect((await client.getSession()).data?.user).toMatchObject({ role: 'admin' })
    const created = await client.admin.createUser({
      email: 'grace@example.com',
      password: PASSWORD,
      name: 'Grace Hopper',
      role: 'user',
      data: { image: 'https://example.com/grace.png', emailVerified: true },
    })
    expect(created.error).toBeNull()
    const grace = created.data?.user
    expect(grace).toMatchObject({
      email: 'grace@example.com',
      role: 'user',
      banned: false,
      image: 'https://example.com/grace.png',
      emailVerified: true,
    })
    const graceId = grace?.id ?? ''

    const listed = await client.admin.listUsers({
      query: {
        searchValue: 'grace',
        searchField: 'email',
        limit: 10,
        sortBy: 'createdAt',
        sortDirection: 'desc',
      },
    })
    expect(listed.error).toBeNull()
    expect(listed.data).toMatchObject({ total: 1, limit: 10 })
    expect(listed.data?.users.map((u) => u.id)).toEqual([graceId])

    const got = await client.admin.getUser({ query: { id: graceId } })
    expect(got.data).toMatchObject({ id: graceId, name: 'Grace Hopper' })
    const updated = await client.admin.updateUser({ userId: graceId, data: { name: 'Rear Admiral Hopper' } })
    expect(updated.data).toMatchObject({ name: 'Rear Admiral Hopper' })
    const reason = await client.admin.updateUser({ userId: graceId, data: { banReason: 'pending review' } })
    expect(reason.data).toMatchObject({ banned: false, banReason: 'pending review' })
    const role = await client.admin.setRole({ userId: graceId, role: ['user', 'admin'] })
    expect(role.data?.user).toMatchObject({ role: 'user,admin' })
    expect(
      (await client.admin.setUserPassword({ userId: graceId, newPassword: 'compiler 1952' })).data,
    ).toEqual({
      status: true,
    })
    const graceDevice = device(tessera)
    expect(
      (await graceDevice.client.signIn.email({ email: 'grace@example.com', password: 'compiler 1952' }))
        .error,
    ).toBeNull()

    expect((await client.admin.removeUser({ userId: graceId })).data).toEqual({ success: true })
    expect((await graceDevice.client.getSession()).data).toBeNull()
    const gone = await client.admin.getUser({ query: { id: graceId } })
    expect(gone.error).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' })
  })

  it("bans and unbans: the banned device loses its session, sign-in gets the plugin's message", async () => {
    const { client } = operator
    const mallory = device(tessera)
    const signUp = await mallory.client.signUp.email({
      name: 'Mallory',
      email: 'mallory@example.com',
      password: PASSWORD,
    })
    const malloryId = signUp.data?.user.id ?? ''

    const sessions = await client.admin.listUserSessions({ userId: malloryId })
    expect(sessions.data?.sessions).toHaveLength(1)
    const banned = await client.admin.banUser({ userId: malloryId, banReason: 'Spam', banExpiresIn: 3600 })
    expect(banned.data?.user).toMatchObject({ banned: true, banReason: 'Spam' })
    expect((await mallory.client.getSession()).data).toBeNull()
    const refused = await device(tessera).client.signIn.email({
      email: 'mallory@example.com',
      password: PASSWORD,
    })
    expect(refused.error).toMatchObject({
      status: 403,
      code: 'BANNED_USER',
      message:
        'You have been banned from this application. Please contact support if you believe this is an error.',
    })
    expect((await client.admin.unbanUser({ userId: malloryId })).data?.user).toMatchObject({ banned: false })
    const again = device(tessera)
    expect(
      (await again.client.signIn.email({ email: 'mallory@example.com', password: PASSWORD })).error,
    ).toBeNull()
    const listed = await client.admin.listUserSessions({ userId: malloryId })
    const token = listed.data?.sessions[0]?.token ?? ''
    expect((await client.admin.revokeUserSession({ sessionToken: token })).data).toEqual({ success: true })
    expect((await again.client.getSession()).data).toBeNull()
    expect((await client.admin.revokeUserSessions({ userId: malloryId })).data).toEqual({ success: true })
  })

  it("impersonates a user and stops, back in the operator's own session", async () => {
    const { client } = operator
    const ada = device(tessera)
    const adaId = (
      await ada.client.signUp.email({ name: 'Ada', email: 'ada@example.com', password: PASSWORD })
    ).data?.user.id
    const own = (await client.getSession()).data?.session.id

    const started = await client.admin.impersonateUser({ userId: adaId ?? '' })
    expect(started.error).toBeNull()
    const during = await client.getSession()
    expect(during.data?.user.id).toBe(adaId)
    expect(during.data?.session).toMatchObject({ impersonatedBy: operatorId })

    const stopped = await client.admin.stopImpersonating()
    expect(stopped.error).toBeNull()
    const after = await client.getSession()
    expect(after.data?.user.id).toBe(operatorId)
    expect(after.data?.session.id).toBe(own)
  })

  it("answers permission checks, remotely and with the plugin's local role check", async () => {
    const { client } = operator
    const remote = await client.admin.hasPermission({ permissions: { user: ['ban'], session: ['revoke'] } })
    expect(remote.data).toEqual({ error: null, success: true })
    expect(client.admin.checkRolePermission({ role: 'admin', permissions: { user: ['ban'] } })).toBe(true)
    expect(client.admin.checkRolePermission({ role: 'user', permissions: { user: ['ban'] } })).toBe(false)

    const plain = device(tessera)
    await plain.client.signUp.email({ name: 'Plain', email: 'plain@example.com', password: PASSWORD })
    const denied = await plain.client.admin.listUsers({ query: {} })
    expect(denied.error).toMatchObject({ status: 403, code: 'YOU_ARE_NOT_ALLOWED_TO_LIST_USERS' })
    expect((await plain.client.admin.hasPermission({ permissions: { user: ['list'] } })).data).toEqual({
      error: null,
      success: false,
    })
    const anonymous = await device(tessera).client.admin.listUsers({ query: {} })
    expect(anonymous.error).toMatchObject({ status: 401 })
  })
})
