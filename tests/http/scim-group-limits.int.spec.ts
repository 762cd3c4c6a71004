/// SCIM Groups against the organization's team limits: a refusal on the team side (the team member
/// limit, a member no longer in the organization) is decided before the group is written, so the
/// call is refused as a SCIM Error and neither the group nor its team changes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signUp } from '../support/organizations.js'
import {
  oktaConnection,
  SCIM_ERROR,
  SCIM_GROUP,
  SCIM_PATCH,
  SCIM_USER,
  scimClient,
} from '../support/scim-client.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

describe('SCIM Groups within the team limits (pglite)', () => {
  let tessera: TestTessera

  beforeAll(async () => {
    tessera = await startTessera({
      features: {
        organization: { teams: { maximumMembersPerTeam: 1 } },
        scim: oktaConnection,
      },
    })
    const owner = await signUp(tessera, 'owner')
    await owner.post('/organization/create', { name: 'Acme', slug: 'acme' })
  }, 240_000)
  afterAll(() => tessera?.cleanup())

  const scim = scimClient(() => tessera)
  const person = async (userName: string) => {
    const created = await scim('POST', '/Users', {
      schemas: [SCIM_USER],
      userName,
      emails: [{ value: userName }],
    })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    return (created.json as { id: string }).id
  }
  const teams = () => tessera.ctx.db.selectFrom('organization_teams').select(['id', 'name']).execute()
  const streamOf = (groupId: string) => tessera.ctx.store.readStream(`scim-group-${groupId}`)

  it('refuses a group whose members overflow its team, writing neither group nor team', async () => {
    const [ada, bob] = [await person('ada@acme.test'), await person('bob@acme.test')]
    const before = await teams()
    const refused = await scim('POST', '/Groups', {
      schemas: [SCIM_GROUP],
      displayName: 'Engineering',
      members: [{ value: ada }, { value: bob }],
    })
    expect(refused.status).toBe(403)
    expect(refused.json).toMatchObject({
      schemas: [SCIM_ERROR],
      status: '403',
      detail: 'Team member limit reached',
    })
    expect(await teams()).toEqual(before)
    const listed = await scim('GET', '/Groups')
    expect(listed.json.totalResults).toBe(0)

    const made = await scim('POST', '/Groups', {
      schemas: [SCIM_GROUP],
      displayName: 'Engineering',
      members: [{ value: ada }],
    })
    expect(made.status, JSON.stringify(made.json)).toBe(201)
    const groupId = (made.json as { id: string }).id
    const version = (await streamOf(groupId)).length
    const patched = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: [SCIM_PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ value: bob }] }],
    })
    expect([patched.status, patched.json.detail]).toEqual([403, 'Team member limit reached'])
    expect((await streamOf(groupId)).length).toBe(version)
    const group = await scim('GET', `/Groups/${groupId}`)
    expect(group.json.members.map((member: { value: string }) => member.value)).toEqual([ada])
  })
})
