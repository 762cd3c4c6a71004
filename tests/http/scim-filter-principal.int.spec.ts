/// The filtered Users list reads the caller's credential in its own statement (no guard statement
/// before it, nothing kept between requests): a managed token revoked, a declared connection whose
/// organization changed slug or went, are refused by the very next filtered list, as by every
/// other route; a bad filter is still answered after the credential, as behind the guard.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const OKTA = 'okta-token-0123456789abcdef0123456789'
const WRITER = 'writer-token-0123456789abcdef01234567'
const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User'
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error'

describe('the filtered SCIM list and the credential it is asked with', () => {
  let tessera: TestTessera
  let organizationId: string
  let owner: Awaited<ReturnType<typeof signUp>>

  beforeAll(async () => {
    tessera = await startTessera({
      features: {
        scim: {
          connections: [
            {
              id: 'okta',
              provisioningDomainId: 'initech',
              credentials: [
                { id: 'primary', token: OKTA },
                { id: 'writer', token: WRITER, scopes: ['scim.users.write'] },
              ],
            },
          ],
        },
      },
    })
    owner = await signUp(tessera, 'owner')
    const created = await owner.post('/organization/create', { name: 'Initech', slug: 'initech' })
    organizationId = (created.json as { id: string }).id
  }, 240_000)
  afterAll(() => tessera?.cleanup())

  const scim = async (method: 'GET' | 'POST', path: string, token: string | null, body?: unknown) => {
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
    return { status: response.statusCode, json: JSON.parse(response.body), headers: response.headers }
  }
  const provision = (userName: string, token: string) =>
    scim('POST', '/Users', token, {
      schemas: [CORE],
      userName,
      name: { givenName: 'Peter', familyName: 'Gibbons' },
      emails: [{ value: userName, primary: true }],
    })
  const byUserName = (userName: string, token: string | null) =>
    scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`, token)

  it('finds one person, and answers a filter that matches nobody with an empty list', async () => {
    expect((await provision('peter@initech.test', OKTA)).status).toBe(201)
    const found = await byUserName('PETER@initech.test', OKTA)
    expect(found.status).toBe(200)
    expect(found.json).toMatchObject({ totalResults: 1, itemsPerPage: 1, startIndex: 1 })
    expect(found.json.Resources.map((user: { userName: string }) => user.userName)).toEqual([
      'peter@initech.test',
    ])
    const none = await byUserName('nobody@initech.test', OKTA)
    expect(none.json).toMatchObject({ totalResults: 0, itemsPerPage: 0, Resources: [] })
    const pastTheEnd = await scim(
      'GET',
      `/Users?startIndex=5&filter=${encodeURIComponent('userName eq "peter@initech.test"')}`,
      OKTA,
    )
    expect(pastTheEnd.json).toMatchObject({ totalResults: 1, startIndex: 5, itemsPerPage: 0, Resources: [] })
  })

  it("puts each request's own values in a statement of the same shape, conjunctions included", async () => {
    const created = await scim('POST', '/Users', OKTA, {
      schemas: [CORE],
      userName: 'samir@initech.test',
      externalId: 'ext-Samir',
      name: { givenName: 'Samir', familyName: 'Nagheenanajar' },
      emails: [{ value: 'samir@initech.test', primary: true }],
    })
    expect(created.status).toBe(201)
    const list = (filter: string) => scim('GET', `/Users?filter=${encodeURIComponent(filter)}`, OKTA)
    const names = async (filter: string) =>
      ((await list(filter)).json.Resources as { userName: string }[]).map((user) => user.userName)
    expect(await names('userName eq "samir@initech.test" and externalId eq "EXT-samir"')).toEqual([
      'samir@initech.test',
    ])
    expect(await names('userName eq "peter@initech.test" and externalId eq "ext-samir"')).toEqual([])
    expect(await names('emails.value eq " SAMIR@initech.test "')).toEqual(['samir@initech.test'])
    expect(await names(`id eq "${created.json.id}"`)).toEqual(['samir@initech.test'])
    expect(await names('userName eq "peter@initech.test"')).toEqual(['peter@initech.test'])
    expect(await names('userName eq "samir@initech.test"')).toEqual(['samir@initech.test'])
  })

  it('refuses a missing or unknown token with 401, and a token without the read scope with 403', async () => {
    const missing = await byUserName('peter@initech.test', null)
    expect(missing.status).toBe(401)
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="SCIM"')
    const unknown = await byUserName('peter@initech.test', 'not-a-token-0123456789abcdef')
    expect(unknown).toMatchObject({
      status: 401,
      json: { schemas: [ERROR], detail: 'Invalid SCIM bearer token' },
    })
    const unknownManaged = await byUserName('peter@initech.test', 'ba_scim_credential_nope.secret')
    expect(unknownManaged.status).toBe(401)
    const writer = await byUserName('peter@initech.test', WRITER)
    expect(writer.json).toMatchObject({
      status: '403',
      detail: 'The SCIM bearer token is missing the scim.users.read scope',
    })
  })

  it('answers a bad filter after the credential: 401 without a good token, 400 with one', async () => {
    const bad = `/Users?filter=${encodeURIComponent('userName co "peter"')}`
    expect((await scim('GET', bad, 'not-a-token-0123456789abcdef')).status).toBe(401)
    expect((await scim('GET', bad, OKTA)).json).toMatchObject({ status: '400', scimType: 'invalidFilter' })
  })

  it('refuses a managed token at the first filtered list after its revocation', async () => {
    const minted = await owner.post('/scim/rotate-managed-credential', {
      organizationId,
      scopes: ['scim.users.read', 'scim.users.write'],
    })
    const { token, credential } = minted.json as { token: string; credential: { credentialId: string } }
    expect((await provision('milton@initech.test', token)).status).toBe(201)
    // Asked twice: whatever the first answer may have left behind, the second must not reuse.
    for (let i = 0; i < 2; i++)
      expect((await byUserName('milton@initech.test', token)).json).toMatchObject({ totalResults: 1 })
    // The managed connection sees only its own people.
    expect((await byUserName('peter@initech.test', token)).json).toMatchObject({ totalResults: 0 })
    await owner.post('/scim/revoke-managed-credential', {
      organizationId,
      credentialId: credential.credentialId,
    })
    const refused = await byUserName('milton@initech.test', token)
    expect(refused).toMatchObject({ status: 401, json: { detail: 'Invalid SCIM bearer token' } })
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="SCIM"')
  })

  it("refuses a declared connection at the first filtered list once its organization's slug moved", async () => {
    expect((await byUserName('peter@initech.test', OKTA)).json).toMatchObject({ totalResults: 1 })
    const moved = await owner.post('/organization/update', { organizationId, data: { slug: 'initrode' } })
    expect(moved.status, JSON.stringify(moved.json)).toBe(200)
    expect(await byUserName('peter@initech.test', OKTA)).toMatchObject({
      status: 403,
      json: { detail: 'The SCIM connection names no organization' },
    })
    await owner.post('/organization/update', { organizationId, data: { slug: 'initech' } })
    expect((await byUserName('peter@initech.test', OKTA)).json).toMatchObject({ totalResults: 1 })
  })
})
