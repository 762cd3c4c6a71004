/// Compatibility: `@better-auth/scim` 1.7.5 ships no client plugin, so an application reaches its
/// routes with better-auth's own client (`createAuthClient` with `ssoClient()` and
/// `organizationClient()`, as the other compat tests) and its `$fetch`. Against a Tessera on loopback:
/// an owner mints the organization's SCIM token (`/scim/rotate-managed-credential`, the plugin's
/// server function on a path of its name), then an IdP's client with only that bearer token runs
/// create → get → filter (`userName eq`, `emails.value eq`, `externalId eq`) → patch → deactivate
/// (the person's sessions end and sign-in is refused) → delete, and reads the discovery documents
/// without a token. Shapes are checked as the plugin answers them: schemas, meta, ListResponse.

import { ssoClient } from '@better-auth/sso/client'
import { createAuthClient } from 'better-auth/client'
import { organizationClient } from 'better-auth/client/plugins'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, webBrowser } from '../support/oidc-provider.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'
const SERVER_KEY = 'compat-scim-key-0123456789abcdef0123'
const CORE_USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse'
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error'

type ScimUser = {
  schemas: string[]
  id: string
  userName: string
  externalId?: string
  active: boolean
  displayName: string
  name: { formatted: string; givenName?: string; familyName?: string }
  emails: { value: string; primary?: boolean }[]
  meta: { resourceType: string; created: string; lastModified: string; location: string }
}
type ScimList<T = ScimUser> = {
  schemas: string[]
  totalResults: number
  startIndex: number
  itemsPerPage: number
  Resources: T[]
}

/** A signed-in device of the app: the client with its plugins and a cookie jar of its own. */
const appClient = (tessera: TestTessera) => {
  const browser = webBrowser()
  const jar = browser.jarOf(tessera.baseUrl)
  const client = createAuthClient({
    baseURL: tessera.baseUrl,
    plugins: [ssoClient(), organizationClient()],
    fetchOptions: {
      onRequest(context: { headers: Headers }) {
        context.headers.set('origin', tessera.ctx.config.baseOrigin)
        const cookie = jar.header()
        if (cookie) context.headers.set('cookie', cookie)
      },
      onResponse(context: { response: Response }) {
        jar.store(context.response.headers.getSetCookie())
      },
    },
  })
  return client
}

/** The IdP's side: the same client, no cookies, the SCIM bearer token on every call. */
const idpClient = (tessera: TestTessera, token: string | null) =>
  createAuthClient({
    baseURL: tessera.baseUrl,
    plugins: [ssoClient(), organizationClient()],
    fetchOptions: token ? { auth: { type: 'Bearer', token } } : {},
  })

describe('better-auth 1.7.5 client on the SCIM plugin’s routes against Tessera (pglite)', {
  timeout: 240_000,
}, () => {
  let tessera: TestTessera
  let token: string
  let idp: ReturnType<typeof idpClient>

  beforeAll(async () => {
    const port = await freePort()
    tessera = await startTessera({
      listen: true,
      env: { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, SERVER_KEYS: `ops=${SERVER_KEY}` },
    })
    const owner = appClient(tessera)
    expect(
      (await owner.signUp.email({ name: 'Owner', email: 'owner@example.com', password: PASSWORD })).error,
    ).toBeNull()
    const created = await owner.organization.create({ name: 'Umbrella', slug: 'umbrella' })
    expect(created.error).toBeNull()
    const minted = await owner.$fetch<{
      token: string
      credential: { credentialId: string; status: string; scopes: string[] }
    }>('/scim/rotate-managed-credential', {
      method: 'POST',
      body: { organizationId: created.data?.id },
    })
    expect(minted.error).toBeNull()
    token = minted.data?.token as string
    expect(minted.data?.credential).toMatchObject({
      status: 'active',
      scopes: ['scim.users.read', 'scim.users.write', 'scim.groups.read', 'scim.groups.write'],
    })
    idp = idpClient(tessera, token)
  })
  afterAll(() => tessera?.cleanup())

  const scimUrl = (path: string) => `/scim/v2${path}`

  it('runs create → get → filter → patch → deactivate → delete with the bearer token', async () => {
    const created = await idp.$fetch<ScimUser>(scimUrl('/Users'), {
      method: 'POST',
      body: {
        schemas: [CORE_USER],
        userName: 'jill@umbrella.test',
        externalId: 'okta-00u1jill',
        name: { givenName: 'Jill', familyName: 'Valentine' },
        emails: [{ value: 'jill@umbrella.test', primary: true, type: 'work' }],
        active: true,
      },
    })
    expect(created.error).toBeNull()
    const user = created.data as ScimUser
    expect(user).toMatchObject({
      schemas: [CORE_USER],
      userName: 'jill@umbrella.test',
      externalId: 'okta-00u1jill',
      active: true,
      name: { formatted: 'Jill Valentine' },
      emails: [{ value: 'jill@umbrella.test', primary: true }],
      meta: { resourceType: 'User', location: `${tessera.baseUrl}/api/auth/scim/v2/Users/${user.id}` },
    })
    expect(Date.parse(user.meta.created)).not.toBeNaN()
    expect(Date.parse(user.meta.lastModified)).toBeGreaterThanOrEqual(Date.parse(user.meta.created))

    const got = await idp.$fetch<ScimUser>(scimUrl(`/Users/${user.id}`))
    expect(got.data).toEqual(user)

    for (const filter of [
      'userName eq "JILL@umbrella.test"',
      'emails.value eq "jill@umbrella.test"',
      'externalId eq "okta-00u1jill"',
    ]) {
      const listed = await idp.$fetch<ScimList>(scimUrl('/Users'), { query: { filter } })
      expect(listed.error, filter).toBeNull()
      expect(listed.data, filter).toEqual({
        schemas: [LIST],
        totalResults: 1,
        startIndex: 1,
        itemsPerPage: 1,
        Resources: [user],
      })
    }
    const nobody = await idp.$fetch<ScimList>(scimUrl('/Users'), {
      query: { filter: 'externalId eq "okta-00u1nobody"' },
    })
    expect(nobody.data).toMatchObject({ totalResults: 0, itemsPerPage: 0, Resources: [] })

    const patched = await idp.$fetch<ScimUser>(scimUrl(`/Users/${user.id}`), {
      method: 'PATCH',
      body: {
        schemas: [PATCH],
        Operations: [
          { op: 'replace', path: 'name.familyName', value: 'Redfield' },
          { op: 'add', path: 'externalId', value: 'okta-00u1jill-2' },
        ],
      },
    })
    expect(patched.error).toBeNull()
    expect(patched.data).toMatchObject({
      id: user.id,
      externalId: 'okta-00u1jill-2',
      name: { formatted: 'Jill Redfield' },
      active: true,
    })

    const deleted = await idp.$fetch(scimUrl(`/Users/${user.id}`), { method: 'DELETE' })
    expect(deleted.error).toBeNull()
    const gone = await idp.$fetch(scimUrl(`/Users/${user.id}`))
    expect(gone.error).toMatchObject({ status: 404, schemas: [ERROR], detail: 'User not found' })
  })

  it('deactivating ends the person’s sessions at once and refuses their sign-in until reactivated', async () => {
    const created = await idp.$fetch<ScimUser>(scimUrl('/Users'), {
      method: 'POST',
      body: {
        schemas: [CORE_USER],
        userName: 'chris@umbrella.test',
        emails: [{ value: 'chris@umbrella.test' }],
      },
    })
    const user = created.data as ScimUser
    // The app's backend gives the provisioned person a password over the server API.
    const set = await fetch(`${tessera.baseUrl}/api/auth/admin/set-user-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tessera-server-key': SERVER_KEY },
      body: JSON.stringify({ userId: user.id, newPassword: PASSWORD }),
    })
    expect(set.status).toBe(200)
    const person = appClient(tessera)
    expect((await person.signIn.email({ email: 'chris@umbrella.test', password: PASSWORD })).error).toBeNull()
    expect((await person.getSession()).data?.user.id).toBe(user.id)

    const deactivated = await idp.$fetch<ScimUser>(scimUrl(`/Users/${user.id}`), {
      method: 'PATCH',
      body: { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: false } }] },
    })
    expect(deactivated.data).toMatchObject({ id: user.id, active: false })
    expect((await person.getSession()).data).toBeNull()
    const refused = await appClient(tessera).signIn.email({
      email: 'chris@umbrella.test',
      password: PASSWORD,
    })
    expect(refused.error).toMatchObject({ status: 403, code: 'USER_DEACTIVATED' })

    const reactivated = await idp.$fetch<ScimUser>(scimUrl(`/Users/${user.id}`), {
      method: 'PATCH',
      body: { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: true }] },
    })
    expect(reactivated.data).toMatchObject({ active: true })
    expect(
      (await appClient(tessera).signIn.email({ email: 'chris@umbrella.test', password: PASSWORD })).error,
    ).toBeNull()
  })

  it('refuses the Users routes without the token, in the SCIM Error schema', async () => {
    const anonymous = idpClient(tessera, null)
    const answer = await anonymous.$fetch(scimUrl('/Users'))
    expect(answer.error).toMatchObject({ status: 401, schemas: [ERROR] })
    const wrong = await idpClient(tessera, `${token}x`).$fetch(scimUrl('/Users'))
    expect(wrong.error).toMatchObject({ status: 401, schemas: [ERROR] })
  })

  it('serves ServiceProviderConfig, Schemas and ResourceTypes without a token, as the plugin shapes them', async () => {
    const anonymous = idpClient(tessera, null)
    const base = `${tessera.baseUrl}/api/auth/scim/v2`
    const config = await anonymous.$fetch<Record<string, unknown>>(scimUrl('/ServiceProviderConfig'))
    expect(config.error).toBeNull()
    expect(config.data).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: 100 },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      authenticationSchemes: [{ type: 'oauthbearertoken', primary: true }],
      meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
    })

    const schemas = await anonymous.$fetch<ScimList<Record<string, unknown>>>(scimUrl('/Schemas'))
    expect(schemas.data).toMatchObject({ schemas: [LIST], totalResults: 2, startIndex: 1, itemsPerPage: 2 })
    const userSchema = schemas.data?.Resources.find((schema) => schema.id === CORE_USER)
    expect(userSchema).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
      name: 'User',
      meta: { resourceType: 'Schema', location: `${base}/Schemas/${CORE_USER}` },
    })
    const names = ((userSchema?.attributes ?? []) as { name: string }[]).map((attribute) => attribute.name)
    expect(names).toEqual(expect.arrayContaining(['userName', 'externalId', 'name', 'emails', 'active']))
    const one = await anonymous.$fetch(scimUrl(`/Schemas/${CORE_USER}`))
    expect(one.data).toEqual(userSchema)

    const types = await anonymous.$fetch<ScimList<Record<string, unknown>>>(scimUrl('/ResourceTypes'))
    expect(types.data).toMatchObject({ schemas: [LIST], totalResults: 2 })
    expect(types.data?.Resources).toContainEqual({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'User Account',
      schema: CORE_USER,
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` },
    })
    const unknown = await anonymous.$fetch(scimUrl('/ResourceTypes/Printer'))
    expect(unknown.error).toMatchObject({ status: 404, schemas: [ERROR] })
  })
})
