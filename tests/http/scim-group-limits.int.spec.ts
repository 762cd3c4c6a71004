/// SCIM Groups against the organization's team limits: a refusal on the team side (the team member
/// limit, a member no longer in the organization) is decided before the group is written, so the
/// call is refused as a SCIM Error and neither the group nor its team changes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const OKTA = 'okta-token-0123456789abcdef0123456789'
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group'
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error'

describe('SCIM Groups within the team limits (pglite)', () => {
  let tessera: TestTessera

  beforeAll(async () => {
    tessera = await startTessera({
      features: {
        organization: { teams: { maximumMembersPerTeam: 1 } },
        scim: {
          connections: [
            { id: 'okta', provisioningDomainId: 'acme', credentials: [{ id: 'primary', token: OKTA }] },
          ],
        },
      },
    })
    const owner = await signUp(tessera, 'owner')
    await owner.post('/organization/create', { name: 'Acme', slug: 'acme' })
  }, 240_000)
  afterAll(() => tessera?.cleanup())

  const scim = async (method: string, path: string, body?: unknown) => {
    const response = await tessera.app?.inject({
      method: method as 'GET',
      url: `/api/auth/scim/v2${path}`,
      headers: {
        authorization: `Bearer ${OKTA}`,
        ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    })
    if (!response) throw new Error('no app')
    return { status: response.statusCode, json: response.body ? JSON.parse(response.body) : null }
  }
  const person = async (userName: string) => {
    const created = await scim('POST', '/Users', { schemas: [USER], userName, emails: [{ value: userName }] })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    return (created.json as { id: string }).id
  }
  const teams = () => tessera.ctx.db.selectFrom('organization_teams').select(['id', 'name']).execute()
  const streamOf = (groupId: string) => tessera.ctx.store.readStream(`scim-group-${groupId}`)

  it('refuses a group whose members overflow its team, writing neither group nor team', async () => {
    const [ada, bob] = [await person('ada@acme.test'), await person('bob@acme.test')]
    const before = await teams()
    const refused = await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Engineering',
      members: [{ value: ada }, { value: bob }],
    })
    expect(refused.status).toBe(403)
    expect(refused.json).toMatchObject({
      schemas: [ERROR],
      status: '403',
      detail: 'Team member limit reached',
    })
    expect(await teams()).toEqual(before)
    const listed = await scim('GET', '/Groups')
    expect(listed.json.totalResults).toBe(0)

    const made = await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Engineering',
      members: [{ value: ada }],
    })
    expect(made.status, JSON.stringify(made.json)).toBe(201)
    const groupId = (made.json as { id: string }).id
    const version = (await streamOf(groupId)).length
    const patched = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ value: bob }] }],
    })
    expect([patched.status, patched.json.detail]).toEqual([403, 'Team member limit reached'])
    expect((await streamOf(groupId)).length).toBe(version)
    const group = await scim('GET', `/Groups/${groupId}`)
    expect(group.json.members.map((member: { value: string }) => member.value)).toEqual([ada])
  })
})
