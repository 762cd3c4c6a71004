/// SCIM 2.0 provisioning as an IdP's client drives it (RFC 7644, better-auth's SCIM plugin wire):
/// the create → patch → deactivate → delete cycle, the filters and paging, errors in the SCIM Error
/// schema, token scopes, a connection seeing only its own people, and a deactivated person refused
/// at sign-in and signed out at once.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserFor } from '../support/browser.js'
import { signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SERVER_KEY = 'backend-key-0123456789abcdef0123456789'
const OKTA = 'okta-token-0123456789abcdef0123456789'
const READER = 'reader-token-0123456789abcdef01234567'
const OTHER = 'other-token-0123456789abcdef012345678'
const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User'
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error'

type ScimUser = {
  id: string
  userName: string
  externalId?: string
  active: boolean
  emails: { value: string }[]
  name: { formatted: string }
  meta: { location: string }
}
type ScimList = { totalResults: number; startIndex: number; itemsPerPage: number; Resources: ScimUser[] }

describe('SCIM 2.0 provisioning (pglite)', () => {
  let tessera: TestTessera
  let organizationId: string

  beforeAll(async () => {
    tessera = await startTessera({
      env: { SERVER_KEYS: `ops=${SERVER_KEY}`, SCIM_OTHER_TOKEN: OTHER },
      features: {
        scim: {
          connections: [
            {
              id: 'okta',
              provisioningDomainId: 'acme',
              credentials: [
                { id: 'primary', token: OKTA },
                { id: 'auditor', token: READER, scopes: ['scim.users.read'] },
              ],
            },
            {
              id: 'entra',
              provisioningDomainId: 'globex',
              credentials: [{ id: 'main', token: { env: 'SCIM_OTHER_TOKEN' } }],
            },
          ],
        },
      },
    })
    const owner = await signUp(tessera, 'owner')
    const created = await owner.post('/organization/create', { name: 'Acme', slug: 'acme' })
    organizationId = (created.json as { id: string }).id
    await owner.post('/organization/create', { name: 'Globex', slug: 'globex' })
  }, 240_000)
  afterAll(() => tessera?.cleanup())

  const scim = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    token: string | null = OKTA,
  ) => {
    const app = tessera.app
    if (!app) throw new Error('no app')
    const response = await app.inject({
      method,
      url: `/api/auth/scim/v2${path}`,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    })
    return {
      status: response.statusCode,
      json: response.body ? JSON.parse(response.body) : null,
      headers: response.headers,
    }
  }
  const provision = (userName: string, extra: object = {}, token = OKTA) =>
    scim(
      'POST',
      '/Users',
      {
        schemas: [CORE],
        userName,
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        emails: [{ value: userName, primary: true }],
        ...extra,
      },
      token,
    )
  const members = async () => {
    const owner = browserFor(tessera)
    await owner.post('/sign-in/email', { email: 'owner@example.com', password: 'correct horse battery' })
    const answer = await owner.get(`/organization/list-members?organizationId=${organizationId}`)
    return (answer.json as { members: { userId: string; role: string }[] }).members
  }

  it('runs the create → patch → deactivate → delete cycle, each step on the aggregates with the token as actor', async () => {
    const created = await provision('ada@acme.test', { externalId: 'okta-ada' })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    expect(created.headers['content-type']).toContain('application/scim+json')
    const user = created.json as ScimUser
    expect(user).toMatchObject({
      userName: 'ada@acme.test',
      externalId: 'okta-ada',
      active: true,
      name: { formatted: 'Ada Lovelace' },
    })
    expect(created.headers.location).toBe(user.meta.location)
    expect(user.meta.location).toMatch(/\/api\/auth\/scim\/v2\/Users\//)
    expect((await members()).find((m) => m.userId === user.id)?.role).toBe('member')

    const patched = await scim('PATCH', `/Users/${user.id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'replace', path: 'name.givenName', value: 'Augusta' },
        { op: 'add', value: { externalId: 'okta-ada-2' } },
      ],
    })
    expect(patched.status, JSON.stringify(patched.json)).toBe(200)
    expect(patched.json).toMatchObject({ externalId: 'okta-ada-2', name: { formatted: 'Augusta Lovelace' } })

    const deactivated = await scim('PATCH', `/Users/${user.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { active: false } }],
    })
    expect(deactivated.json).toMatchObject({ active: false })

    const deleted = await scim('DELETE', `/Users/${user.id}`)
    expect(deleted.status).toBe(204)
    expect((await scim('GET', `/Users/${user.id}`)).status).toBe(404)
    expect((await members()).some((m) => m.userId === user.id)).toBe(false)

    const actors = (await tessera.store.readStream(`scim-user-${user.id}`)).map((event) => [
      event.type,
      event.metadata.actor,
    ])
    expect(actors).toEqual([
      ['scim.user-provisioned', { type: 'scim', connectionId: 'okta', credentialId: 'primary' }],
      ['scim.user-updated', { type: 'scim', connectionId: 'okta', credentialId: 'primary' }],
      ['scim.user-deactivated', { type: 'scim', connectionId: 'okta', credentialId: 'primary' }],
      ['scim.user-deprovisioned', { type: 'scim', connectionId: 'okta', credentialId: 'primary' }],
    ])
    const owner = browserFor(tessera)
    await owner.post('/sign-in/email', { email: 'owner@example.com', password: 'correct horse battery' })
    const feed = await owner.get(`/organization/activity?organizationId=${organizationId}`)
    const types = JSON.stringify(feed.json)
    for (const type of [
      'scim.user-provisioned',
      'scim.user-updated',
      'scim.user-deactivated',
      'scim.user-deprovisioned',
    ])
      expect(types, `${type} in the organization's activity`).toContain(type)
  })

  it('filters by userName, emails.value and externalId (case-insensitively) and pages with startIndex and count', async () => {
    for (const n of [1, 2, 3, 4, 5])
      expect((await provision(`p${n}@acme.test`, { externalId: `ext-${n}` })).status).toBe(201)
    const byName = (await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "P3@ACME.TEST"')}`))
      .json as ScimList
    expect(byName.Resources.map((u) => u.userName)).toEqual(['p3@acme.test'])
    const byEmail = (
      await scim('GET', `/Users?filter=${encodeURIComponent('emails.value eq "p4@acme.test"')}`)
    ).json as ScimList
    expect(byEmail.Resources.map((u) => u.externalId)).toEqual(['ext-4'])
    const byExternal = (await scim('GET', `/Users?filter=${encodeURIComponent('externalId eq "ext-2"')}`))
      .json as ScimList
    expect(byExternal).toMatchObject({ totalResults: 1, Resources: [{ userName: 'p2@acme.test' }] })
    const none = (await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "nobody@acme.test"')}`))
      .json as ScimList
    expect(none).toMatchObject({ totalResults: 0, Resources: [] })
    // A filtered page past its matches still tells how many there are.
    const past = (
      await scim('GET', `/Users?startIndex=2&filter=${encodeURIComponent('externalId eq "ext-2"')}`)
    ).json as ScimList
    expect(past).toMatchObject({ totalResults: 1, startIndex: 2, Resources: [] })

    const all = (await scim('GET', '/Users')).json as ScimList
    const page = (await scim('GET', '/Users?startIndex=2&count=2')).json as ScimList
    expect(page).toMatchObject({ totalResults: all.totalResults, startIndex: 2, itemsPerPage: 2 })
    expect(page.Resources.map((u) => u.id)).toEqual(all.Resources.slice(1, 3).map((u) => u.id))
  })

  it('answers errors in the SCIM Error schema: bad filter, unknown user, conflict, no token, bad body', async () => {
    const badFilter = await scim('GET', `/Users?filter=${encodeURIComponent('userName co "a"')}`)
    expect(badFilter).toMatchObject({
      status: 400,
      json: { schemas: [ERROR], status: '400', scimType: 'invalidFilter' },
    })
    expect((await scim('GET', '/Users/nope')).json).toEqual({
      schemas: [ERROR],
      status: '404',
      detail: 'User not found',
    })
    expect((await provision('dup@acme.test')).status).toBe(201)
    expect(await provision('dup@acme.test')).toMatchObject({
      status: 409,
      json: { status: '409', scimType: 'uniqueness' },
    })
    const noToken = await scim('GET', '/Users', undefined, null)
    expect(noToken).toMatchObject({ status: 401, json: { schemas: [ERROR], status: '401' } })
    expect(noToken.headers['www-authenticate']).toBe('Bearer realm="SCIM"')
    expect((await scim('GET', '/Users', undefined, 'not-a-token')).status).toBe(401)
    const noUserName = await scim('POST', '/Users', { schemas: [CORE], emails: [{ value: 'x@acme.test' }] })
    expect(noUserName).toMatchObject({ status: 400, json: { schemas: [ERROR], status: '400' } })
    const badPatch = await scim('PATCH', '/Users/nope', {
      schemas: [PATCH],
      Operations: [{ op: 'move', path: 'active' }],
    })
    expect(badPatch.json).toMatchObject({ schemas: [ERROR] })
  })

  it('serves discovery without a token', async () => {
    const config = await scim('GET', '/ServiceProviderConfig', undefined, null)
    expect(config.json).toMatchObject({
      patch: { supported: true },
      filter: { supported: true, maxResults: 100 },
    })
    expect((await scim('GET', '/Schemas', undefined, null)).json).toMatchObject({
      totalResults: 2,
      Resources: [{ id: CORE }, { id: 'urn:ietf:params:scim:schemas:core:2.0:Group' }],
    })
    expect((await scim('GET', '/ResourceTypes', undefined, null)).json).toMatchObject({
      Resources: [
        { id: 'User', endpoint: '/Users' },
        { id: 'Group', endpoint: '/Groups' },
      ],
    })
  })

  it('holds a token to its scopes', async () => {
    expect((await scim('GET', '/Users', undefined, READER)).status).toBe(200)
    const write = await provision('scoped@acme.test', {}, READER)
    expect(write).toMatchObject({
      status: 403,
      json: { detail: 'The SCIM bearer token is missing the scim.users.write scope' },
    })
  })

  it('lets a connection see and change only its own people', async () => {
    const mine = (await provision('mine@acme.test')).json as ScimUser
    const theirs = await provision('theirs@globex.test', {}, OTHER)
    expect(theirs.status).toBe(201)
    expect((await scim('GET', `/Users/${mine.id}`, undefined, OTHER)).status).toBe(404)
    expect((await scim('DELETE', `/Users/${mine.id}`, undefined, OTHER)).status).toBe(404)
    const list = (await scim('GET', '/Users', undefined, OTHER)).json as ScimList
    expect(list.Resources.map((u) => u.userName)).toEqual(['theirs@globex.test'])
  })

  it('signs a deactivated person out at once and refuses their sign-in until reactivated', async () => {
    const user = (await provision('grace@acme.test')).json as ScimUser
    const set = await tessera.api.request(
      'POST',
      '/admin/set-user-password',
      { userId: user.id, newPassword: 'a good password' },
      { 'x-tessera-server-key': SERVER_KEY },
    )
    expect(set.status).toBe(200)
    const device = browserFor(tessera)
    expect(
      (await device.post('/sign-in/email', { email: 'grace@acme.test', password: 'a good password' })).status,
    ).toBe(200)
    expect(await device.session()).not.toBeNull()

    await scim('PUT', `/Users/${user.id}`, {
      schemas: [CORE],
      userName: 'grace@acme.test',
      active: false,
      emails: [{ value: 'grace@acme.test' }],
    })
    expect(await device.session()).toBeNull()
    const refused = await browserFor(tessera).post('/sign-in/email', {
      email: 'grace@acme.test',
      password: 'a good password',
    })
    expect(refused).toMatchObject({ status: 403, json: { code: 'USER_DEACTIVATED' } })

    await scim('PATCH', `/Users/${user.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'active', value: 'True' }],
    })
    expect(
      (
        await browserFor(tessera).post('/sign-in/email', {
          email: 'grace@acme.test',
          password: 'a good password',
        })
      ).status,
    ).toBe(200)
  })

  it("lets the organization's owners mint, list and revoke their own tokens; a revoked token stops at once", async () => {
    const owner = browserFor(tessera)
    await owner.post('/sign-in/email', { email: 'owner@example.com', password: 'correct horse battery' })
    const minted = await owner.post('/scim/rotate-managed-credential', {
      organizationId,
      scopes: ['scim.users.read', 'scim.users.write'],
    })
    expect(minted.status, JSON.stringify(minted.json)).toBe(200)
    const { token, credential, connection } = minted.json as {
      token: string
      credential: { credentialId: string; status: string }
      connection: { connectionId: string }
    }
    expect(token.startsWith(`${credential.credentialId}.`)).toBe(true)
    expect(credential.status).toBe('active')
    expect(connection.connectionId).toMatch(/^ba_scim_connection_/)

    const provisioned = await provision('managed@acme.test', {}, token)
    expect(provisioned.status).toBe(201)
    // The managed connection is a connection of its own: it does not see the config file's people.
    const seen = (await scim('GET', '/Users', undefined, token)).json as ScimList
    expect(seen.Resources.map((u) => u.userName)).toEqual(['managed@acme.test'])

    const listed = await owner.get(`/scim/list-managed-connections?organizationId=${organizationId}`)
    expect(listed.json).toMatchObject({
      connections: [
        { connectionId: connection.connectionId, credentials: [{ credentialId: credential.credentialId }] },
      ],
    })
    expect(JSON.stringify(listed.json)).not.toContain(token)
    // What the connection provisioned, and when it last changed someone (the portal's Directory sync).
    type Listed = { provisioned: unknown; latestPeople: unknown; lastSyncAt: string }
    const [managed] = (listed.json as { connections: [Listed] }).connections
    expect(managed.provisioned).toEqual({ total: 1, active: 1 })
    expect(managed.latestPeople).toEqual([
      expect.objectContaining({ userId: provisioned.json.id, email: 'managed@acme.test', active: true }),
    ])
    expect(Date.parse(managed.lastSyncAt)).toBeGreaterThan(Date.now() - 60_000)

    const member = await signUp(tessera, 'plainmember')
    await tessera.api.request(
      'POST',
      '/organization/add-member',
      { userId: member.userId, role: 'member', organizationId },
      { 'x-tessera-server-key': SERVER_KEY },
    )
    const refused = await member.post('/scim/rotate-managed-credential', { organizationId })
    expect(refused).toMatchObject({ status: 403, json: { code: 'YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM' } })

    const revoked = await owner.post('/scim/revoke-managed-credential', {
      organizationId,
      credentialId: credential.credentialId,
    })
    expect(revoked.json).toMatchObject({ credential: { status: 'revoked' } })
    expect((await scim('GET', '/Users', undefined, token)).status).toBe(401)
    expect(
      (
        await owner.post('/scim/revoke-managed-credential', {
          organizationId,
          credentialId: credential.credentialId,
        })
      ).status,
    ).toBe(409)
  })

  it('loses no update when PATCHes of one person arrive at once (each applied on the latest version)', async () => {
    const created = (await provision('race@acme.test', { externalId: 'race-0' })).json as ScimUser
    const patch = (Operations: unknown[]) =>
      scim('PATCH', `/Users/${created.id}`, { schemas: [PATCH], Operations })
    const answers = await Promise.all([
      patch([{ op: 'replace', path: 'name.givenName', value: 'Grace' }]),
      patch([{ op: 'replace', path: 'name.familyName', value: 'Hopper' }]),
      patch([{ op: 'replace', path: 'externalId', value: 'race-1' }]),
      patch([{ op: 'replace', path: 'userName', value: 'hopper@acme.test' }]),
      patch([{ op: 'replace', value: { active: false } }]),
    ])
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200])
    expect((await scim('GET', `/Users/${created.id}`)).json).toMatchObject({
      userName: 'hopper@acme.test',
      externalId: 'race-1',
      active: false,
      name: { formatted: 'Grace Hopper' },
    })
  })
})
