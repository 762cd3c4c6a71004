/// SCIM user create as one append (issue 36's speed work): the account, the directory's record and
/// the membership are written together, so a refused membership leaves no account behind; creates
/// at c16 into one organization all land, each a member once; the membership takes its user's first
/// seat while an `organizationLimit` is configured; a taken userName is still a 409 with nothing new.

import { afterEach, describe, expect, it } from 'vitest'
import { MEMBERSHIP_SEAT_SCOPE, membershipSeatValue } from '../../domain/organization/organization.js'
import { signUp } from '../support/organizations.js'
import { OKTA_TOKEN, oktaConnection, SCIM_USER, scimClient } from '../support/scim-client.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

describe('SCIM user create, in one append', () => {
  let tessera: TestTessera
  const scim = scimClient(() => tessera, OKTA_TOKEN)
  let organizationId: string

  const start = async (organization: object = {}) => {
    tessera = await startTessera({ features: { scim: oktaConnection, organization } })
    const owner = await signUp(tessera, 'owner')
    const created = await owner.post('/organization/create', { name: 'Acme', slug: 'acme' })
    organizationId = (created.json as { id: string }).id
  }
  afterEach(() => tessera?.cleanup())

  const provision = (userName: string) =>
    scim('POST', '/Users', {
      schemas: [SCIM_USER],
      userName,
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      emails: [{ value: userName, primary: true }],
    })
  const membersAdded = async () =>
    (await tessera.store.readStream(`organization-${organizationId}`))
      .filter((event) => event.type === 'organization.member-added')
      .map((event) => ({ ...event, data: event.data as { userId: string; roles: string[]; seat?: number } }))
  const accountsNamed = async (email: string) =>
    (await tessera.database.db.selectFrom('users').select('id').where('email', '=', email).execute()).length

  it('writes the account, the directory record and the membership in one append', async () => {
    await start()
    const created = await provision('ada@acme.test')
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    const userId = created.json.id as string
    const [registered] = await tessera.store.readStream(`user-${userId}`)
    const [provisioned] = await tessera.store.readStream(`scim-user-${userId}`)
    const membership = (await membersAdded()).find((event) => event.data.userId === userId)
    const correlations = [registered, provisioned, membership].map((event) => event?.metadata.correlationId)
    expect(new Set(correlations).size).toBe(1)
    // One append: the three events were written by one transaction.
    const transactions = [registered, provisioned, membership].map((event) => event?.position.tx)
    expect(transactions[0]).toBeDefined()
    expect(new Set(transactions).size).toBe(1)
    expect(membership?.data).toMatchObject({ roles: ['member'] })
  })

  it('lands sixteen creates at once into one organization, each a member once', async () => {
    await start()
    const names = Array.from({ length: 16 }, (_, n) => `person-${n}@acme.test`)
    const answers = await Promise.all(names.map(provision))
    expect(answers.map((answer) => answer.status)).toEqual(names.map(() => 201))
    const ids = answers.map((answer) => answer.json.id as string)
    const added = (await membersAdded()).map((event) => event.data.userId)
    for (const id of ids) expect(added.filter((userId) => userId === id)).toHaveLength(1)
    const list = await scim('GET', '/Users?count=100')
    expect(list.json.totalResults).toBe(16)
  })

  it('refuses a create past the membership limit and leaves no account behind', async () => {
    await start({ membershipLimit: 2 })
    expect((await provision('first@acme.test')).status).toBe(201)
    const refused = await provision('second@acme.test')
    expect(refused.status).toBe(403)
    expect(refused.json).toMatchObject({ detail: expect.stringMatching(/membership limit/i) })
    expect(await accountsNamed('second@acme.test')).toBe(0)
    const filter = encodeURIComponent('userName eq "second@acme.test"')
    expect((await scim('GET', `/Users?filter=${filter}`)).json.totalResults).toBe(0)
    // Nothing of it was kept: the same person is refused by the limit again, not as a duplicate.
    expect((await provision('second@acme.test')).status).toBe(403)
  })

  it("takes the new user's first membership seat while an organization limit is configured", async () => {
    await start({ organizationLimit: 3 })
    const created = await provision('ada@acme.test')
    const userId = created.json.id as string
    const membership = (await membersAdded()).find((event) => event.data.userId === userId)
    expect(membership?.data).toMatchObject({ seat: 0 })
    const owner = await tessera.store.claimOwner(MEMBERSHIP_SEAT_SCOPE, membershipSeatValue(userId, 0))
    expect(owner).toBe(organizationId)
  })

  it('answers a taken userName with a 409 and adds nobody', async () => {
    await start()
    expect((await provision('dup@acme.test')).status).toBe(201)
    const before = (await membersAdded()).length
    expect(await provision('dup@acme.test')).toMatchObject({ status: 409, json: { scimType: 'uniqueness' } })
    expect(await membersAdded()).toHaveLength(before)
    expect(await accountsNamed('dup@acme.test')).toBe(1)
  })
})
