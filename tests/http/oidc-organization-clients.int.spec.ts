/// OAuth clients owned by an organization: owners and admins register (`reference_id`), list, read,
/// update, rotate the secret of and delete their organization's clients; a plain member is refused
/// 403; another organization's owner sees nothing (404, an empty list of their own); every change is
/// an event with the person who made it, shown in the organization's feed; the consent page's
/// `public-client` names the organization as the owner; and a client so made signs people in.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { oauthClientStream } from '../../domain/oauth-provider/oauth-client.js'
import { signUp } from '../support/organizations.js'
import type { TestTessera } from '../support/tessera.js'
import { authorizeIn, REDIRECT_URI, SERVER_KEY, startProvider } from '../support/tessera-as-provider.js'

let tessera: TestTessera
beforeAll(async () => {
  tessera = await startProvider()
}, 240_000)
afterAll(() => tessera?.cleanup())

type Person = Awaited<ReturnType<typeof signUp>>
type Client = { client_id: string; client_secret?: string; reference_id?: string; user_id?: string }

let count = 0
const person = (name: string) => {
  count += 1
  return signUp(tessera, `${name}-orgclients-${count}`)
}
const server = { 'x-tessera-server-key': SERVER_KEY }

const organizationOf = async (owner: Person, name: string, others: Record<string, Person> = {}) => {
  const slug = `${name.toLowerCase().replace(/\W+/g, '-')}-${Math.random().toString(36).slice(2, 8)}`
  const created = await owner.post('/organization/create', { name, slug })
  expect(created.status, created.body).toBe(200)
  const { id } = created.json as { id: string }
  for (const [role, who] of Object.entries(others)) {
    const added = await tessera.api.request(
      'POST',
      '/organization/add-member',
      { userId: who.userId, role, organizationId: id },
      server,
    )
    expect(added.status, added.body).toBe(200)
  }
  return id
}

const registerFor = (who: Person, organizationId: string, name = 'Acme CRM') =>
  who.post('/oauth2/create-client', {
    client_name: name,
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
    reference_id: organizationId,
  })

describe("an organization's OAuth clients", () => {
  let owner: Person
  let admin: Person
  let member: Person
  let otherOwner: Person
  let organizationId: string
  let otherOrganizationId: string
  let client: Client

  beforeAll(async () => {
    owner = await person('owner')
    admin = await person('admin')
    member = await person('member')
    otherOwner = await person('other')
    organizationId = await organizationOf(owner, 'Acme Industries', { admin, member })
    otherOrganizationId = await organizationOf(otherOwner, 'Globex')
    const made = await registerFor(admin, organizationId)
    expect(made.status, made.body).toBe(201)
    client = made.json as Client
  })

  it('are registered by an admin for the organization, with the secret shown once', async () => {
    expect(client.reference_id).toBe(organizationId)
    expect(client.user_id).toBeUndefined()
    expect(client.client_secret).toMatch(/^[A-Za-z0-9]{48}$/)
    const read = await owner.get(`/oauth2/get-client?client_id=${client.client_id}`)
    expect(read.status, read.body).toBe(200)
    expect(read.json).toMatchObject({ client_id: client.client_id, reference_id: organizationId })
    expect(read.json).not.toHaveProperty('client_secret')
  })

  it('are listed to owners and admins of the organization, and not among their own clients', async () => {
    for (const who of [owner, admin]) {
      const listed = await who.get(`/oauth2/get-clients?reference_id=${organizationId}`)
      expect(listed.status, listed.body).toBe(200)
      expect((listed.json as Client[]).map((c) => c.client_id)).toContain(client.client_id)
    }
    const own = await admin.get('/oauth2/get-clients')
    expect((own.json as Client[]).map((c) => c.client_id)).not.toContain(client.client_id)
  })

  it('are refused to a plain member: 403 on every action', async () => {
    const id = client.client_id
    const answers = [
      await registerFor(member, organizationId),
      await member.get(`/oauth2/get-clients?reference_id=${organizationId}`),
      await member.get(`/oauth2/get-client?client_id=${id}`),
      await member.post('/oauth2/update-client', { client_id: id, update: { client_name: 'Mine' } }),
      await member.post('/oauth2/client/rotate-secret', { client_id: id }),
      await member.post('/oauth2/delete-client', { client_id: id }),
    ]
    for (const answer of answers)
      expect({ status: answer.status, error: (answer.json as { error?: string }).error }).toEqual({
        status: 403,
        error: 'access_denied',
      })
  })

  it("are invisible to another organization's owner", async () => {
    const id = client.client_id
    for (const answer of [
      await otherOwner.get(`/oauth2/get-client?client_id=${id}`),
      await otherOwner.post('/oauth2/update-client', { client_id: id, update: { client_name: 'Ours' } }),
      await otherOwner.post('/oauth2/client/rotate-secret', { client_id: id }),
      await otherOwner.post('/oauth2/delete-client', { client_id: id }),
    ])
      expect({ status: answer.status, error: (answer.json as { error?: string }).error }).toEqual({
        status: 404,
        error: 'not_found',
      })
    const theirs = await otherOwner.get(`/oauth2/get-clients?reference_id=${otherOrganizationId}`)
    expect(theirs.status).toBe(200)
    expect(theirs.json).toEqual([])
    const ours = await otherOwner.get(`/oauth2/get-clients?reference_id=${organizationId}`)
    expect(ours.status).toBe(403)
    expect((await registerFor(otherOwner, organizationId)).status).toBe(403)
  })

  it('are updated, rotated and deleted by owners and admins, each as an event with its actor', async () => {
    const made = await registerFor(owner, organizationId, 'Acme Wiki')
    const { client_id, client_secret } = made.json as Client
    const updated = await admin.post('/oauth2/update-client', {
      client_id,
      update: { client_name: 'Acme Wiki 2' },
    })
    expect(updated.status, updated.body).toBe(200)
    expect(updated.json).toMatchObject({ client_name: 'Acme Wiki 2', reference_id: organizationId })
    const rotated = await owner.post('/oauth2/client/rotate-secret', { client_id })
    expect(rotated.status, rotated.body).toBe(200)
    const secret = (rotated.json as Client).client_secret
    expect(secret).toMatch(/^[A-Za-z0-9]{48}$/)
    expect(secret).not.toBe(client_secret)
    const deleted = await admin.post('/oauth2/delete-client', { client_id })
    expect(deleted.status, deleted.body).toBe(200)
    expect((await owner.get(`/oauth2/get-client?client_id=${client_id}`)).status).toBe(404)

    const events = await tessera.store.readStream(oauthClientStream(client_id))
    expect(events.map((e) => [e.type, e.metadata.actor])).toEqual([
      ['oauth-client.registered', { type: 'user', userId: owner.userId }],
      ['oauth-client.updated', { type: 'user', userId: admin.userId }],
      ['oauth-client.secret-rotated', { type: 'user', userId: owner.userId }],
      ['oauth-client.deleted', { type: 'user', userId: admin.userId }],
    ])
    for (const event of events) expect(JSON.stringify(event.data)).not.toContain(String(secret))
    const feed = await owner.get(`/organization/activity?organizationId=${organizationId}`)
    expect(feed.status, feed.body).toBe(200)
    expect(JSON.stringify(feed.json)).toContain('oauth-client.secret-rotated')
  })

  it('are named by the organization on the consent page, and sign people in', async () => {
    const shown = await member.get(`/oauth2/public-client?client_id=${client.client_id}`)
    expect(shown.status, shown.body).toBe(200)
    expect(shown.json).toMatchObject({ owner_type: 'organization', owner: 'Acme Industries' })
    const url = new URL(`${tessera.baseUrl}/api/auth/oauth2/authorize`)
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: 'openid',
      state: 'org-state',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGjSstw-cM',
      code_challenge_method: 'S256',
    }).toString()
    const back = await authorizeIn(member, url)
    expect(back.origin + back.pathname).toBe(REDIRECT_URI)
    expect(back.searchParams.get('state')).toBe('org-state')
    expect(back.searchParams.get('code')).toBeTruthy()
  })

  it('go with their organization when it is deleted: no consent page, no token', async () => {
    const doomed = await organizationOf(owner, 'Doomed Ltd')
    const made = await registerFor(owner, doomed, 'Doomed app')
    expect(made.status, made.body).toBe(201)
    const { client_id, client_secret } = made.json as Required<Client>
    const askToken = () =>
      fetch(`${tessera.baseUrl}/api/auth/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id, client_secret }),
      }).then(async (response) => ({ status: response.status, json: await response.json() }))
    // While the organization lives, the client authenticates (the grant itself is not one it has).
    expect((await askToken()).json).not.toMatchObject({ error: 'invalid_client' })
    expect((await member.get(`/oauth2/public-client?client_id=${client_id}`)).status).toBe(200)

    const deleted = await owner.post('/organization/delete', { organizationId: doomed })
    expect(deleted.status, deleted.body).toBe(200)
    expect((await member.get(`/oauth2/public-client?client_id=${client_id}`)).status).toBe(404)
    const refused = await askToken()
    expect(refused.status).toBe(401)
    expect(refused.json).toMatchObject({ error: 'invalid_client' })
  })
})
