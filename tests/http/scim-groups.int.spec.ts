/// SCIM Groups as Okta and Entra ID drive them (RFC 7644, the plugin's wire): create, get, list
/// with `displayName eq`, PATCH of `members` (`add`, `remove` by value and by
/// `members[value eq "…"]`, Entra's capitalised ops), PUT and DELETE; each group is the
/// organization's team of the same id; errors in the SCIM Error schema; concurrent member patches
/// lose nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserFor } from '../support/browser.js'
import { signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const OKTA = 'okta-token-0123456789abcdef0123456789'
const READER = 'reader-token-0123456789abcdef01234567'
const OTHER = 'other-token-0123456789abcdef012345678'
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group'
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error'

type Group = {
  id: string
  displayName: string
  externalId?: string
  members: { value: string; display: string; type: string; $ref: string }[]
  meta: { location: string; resourceType: string }
}

describe('SCIM 2.0 Groups (pglite)', () => {
  let tessera: TestTessera
  let organizationId: string

  beforeAll(async () => {
    tessera = await startTessera({
      features: {
        scim: {
          connections: [
            {
              id: 'okta',
              provisioningDomainId: 'acme',
              credentials: [
                { id: 'primary', token: OKTA },
                { id: 'auditor', token: READER, scopes: ['scim.users.read', 'scim.users.write'] },
              ],
            },
            { id: 'entra', provisioningDomainId: 'globex', credentials: [{ id: 'main', token: OTHER }] },
          ],
        },
      },
    })
    const owner = await signUp(tessera, 'owner')
    organizationId = (
      (await owner.post('/organization/create', { name: 'Acme', slug: 'acme' })).json as { id: string }
    ).id
    await owner.post('/organization/create', { name: 'Globex', slug: 'globex' })
  }, 240_000)
  afterAll(() => tessera?.cleanup())

  const scim = async (method: string, path: string, body?: unknown, token = OKTA) => {
    const response = await tessera.app?.inject({
      method: method as 'GET',
      url: `/api/auth/scim/v2${path}`,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    })
    if (!response) throw new Error('no app')
    return {
      status: response.statusCode,
      json: response.body ? JSON.parse(response.body) : null,
      headers: response.headers,
    }
  }
  const person = async (userName: string, token = OKTA) => {
    const created = await scim(
      'POST',
      '/Users',
      { schemas: [USER], userName, emails: [{ value: userName }] },
      token,
    )
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    return (created.json as { id: string }).id
  }
  const patch = (groupId: string, Operations: unknown[], token = OKTA) =>
    scim('PATCH', `/Groups/${groupId}`, { schemas: [PATCH], Operations }, token)
  const owner = async () => {
    const browser = browserFor(tessera)
    await browser.post('/sign-in/email', { email: 'owner@example.com', password: 'correct horse battery' })
    await browser.post('/organization/set-active', { organizationId })
    return browser
  }
  // The organization's read model: an owner outside the team may not list its members.
  const teamMembers = async (teamId: string) =>
    (
      await tessera.ctx.db
        .selectFrom('organization_team_members')
        .select('user_id')
        .where('team_id', '=', teamId)
        .execute()
    )
      .map((row) => row.user_id)
      .sort()
  const ids = (group: Group) => group.members.map((member) => member.value).sort()

  it('creates, patches (Okta and Entra ID shapes), replaces and deletes a group, its team following', async () => {
    const [ada, bob, cy] = [
      await person('ada@acme.test'),
      await person('bob@acme.test'),
      await person('cy@acme.test'),
    ]
    const created = await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Engineering',
      externalId: 'okta-eng',
      members: [{ value: ada }],
    })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    expect(created.headers['content-type']).toContain('application/scim+json')
    const group = created.json as Group
    expect(created.headers.location).toBe(group.meta.location)
    expect(group).toMatchObject({
      displayName: 'Engineering',
      externalId: 'okta-eng',
      meta: { resourceType: 'Group' },
    })
    expect(group.members).toEqual([
      {
        value: ada,
        display: 'ada@acme.test',
        type: 'User',
        $ref: expect.stringMatching(`/scim/v2/Users/${ada}$`),
      },
    ])
    const teams = (await (await owner()).get(`/organization/list-teams?organizationId=${organizationId}`))
      .json as {
      id: string
      name: string
    }[]
    expect(teams.find((team) => team.id === group.id)?.name).toBe('Engineering')
    expect(await teamMembers(group.id)).toEqual([ada])

    // Okta: add by `members`, remove by the value path.
    const okta = await patch(group.id, [
      { op: 'add', path: 'members', value: [{ value: bob, display: 'bob' }] },
      { op: 'remove', path: `members[value eq "${ada}"]` },
    ])
    expect(okta.status, JSON.stringify(okta.json)).toBe(200)
    expect(ids(okta.json)).toEqual([bob])
    expect(await teamMembers(group.id)).toEqual([bob])

    // Entra ID: capitalised ops, remove with a value list, a rename.
    const entra = await patch(group.id, [
      { op: 'Add', path: 'members', value: [{ value: cy }] },
      { op: 'Remove', path: 'members', value: [{ value: bob }] },
      { op: 'Replace', path: 'displayName', value: 'Engineers' },
    ])
    expect(entra.json).toMatchObject({ displayName: 'Engineers' })
    expect(ids(entra.json)).toEqual([cy])
    expect(await teamMembers(group.id)).toEqual([cy])
    const renamed = (await (await owner()).get(`/organization/list-teams?organizationId=${organizationId}`))
      .json as {
      id: string
      name: string
    }[]
    expect(renamed.find((team) => team.id === group.id)?.name).toBe('Engineers')

    const replaced = await scim('PUT', `/Groups/${group.id}`, {
      schemas: [GROUP],
      displayName: 'Engineers',
      members: [{ value: ada }, { value: bob }],
    })
    expect(replaced.status).toBe(200)
    expect(ids(replaced.json)).toEqual([ada, bob].sort())
    expect(replaced.json.externalId).toBeUndefined()
    expect(await teamMembers(group.id)).toEqual([ada, bob].sort())
    expect(ids((await scim('GET', `/Groups/${group.id}`)).json)).toEqual([ada, bob].sort())

    expect((await scim('DELETE', `/Groups/${group.id}`)).status).toBe(204)
    expect((await scim('GET', `/Groups/${group.id}`)).json).toEqual({
      schemas: [ERROR],
      status: '404',
      detail: 'SCIM Group not found',
    })
    const after = (await (await owner()).get(`/organization/list-teams?organizationId=${organizationId}`))
      .json as {
      id: string
    }[]
    expect(after.some((team) => team.id === group.id)).toBe(false)

    const actors = (await tessera.store.readStream(`scim-group-${group.id}`)).map((e) => [
      e.type,
      e.metadata.actor,
    ])
    const scimActor = { type: 'scim', connectionId: 'okta', credentialId: 'primary' }
    expect(actors).toEqual([
      ['scim.group-created', scimActor],
      ['scim.group-members-changed', scimActor],
      // Entra's patch: the rename, then its members.
      ['scim.group-updated', scimActor],
      ['scim.group-members-changed', scimActor],
      // The PUT: its externalId gone, then its members.
      ['scim.group-updated', scimActor],
      ['scim.group-members-changed', scimActor],
      ['scim.group-deleted', scimActor],
    ])
    const feed = JSON.stringify(
      (await (await owner()).get(`/organization/activity?organizationId=${organizationId}`)).json,
    )
    for (const type of ['scim.group-created', 'scim.group-members-changed', 'scim.group-deleted'])
      expect(feed, `${type} in the organization's activity`).toContain(type)
    // The group's name, which the portal says, even after the group (its team) is gone.
    expect(feed).toContain('"displayName":"Engineers"')
  })

  it('lists with `displayName eq` (case-insensitively), pages, and keeps each connection to its own groups', async () => {
    for (const name of ['Sales', 'Support', 'Finance'])
      expect((await scim('POST', '/Groups', { schemas: [GROUP], displayName: name })).status).toBe(201)
    const found = await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "SUPPORT"')}`)
    expect(found.json).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1 })
    expect(found.json.Resources.map((g: Group) => g.displayName)).toEqual(['Support'])
    const all = await scim('GET', '/Groups')
    const page = await scim('GET', '/Groups?startIndex=2&count=1')
    expect(page.json).toMatchObject({ totalResults: all.json.totalResults, startIndex: 2, itemsPerPage: 1 })
    expect(page.json.Resources[0].id).toBe(all.json.Resources[1].id)
    const support = found.json.Resources[0] as Group
    expect((await scim('GET', '/Groups', undefined, OTHER)).json.totalResults).toBe(0)
    expect((await scim('GET', `/Groups/${support.id}`, undefined, OTHER)).status).toBe(404)
    expect((await patch(support.id, [{ op: 'add', path: 'displayName', value: 'x' }], OTHER)).status).toBe(
      404,
    )
    expect((await scim('DELETE', `/Groups/${support.id}`, undefined, OTHER)).status).toBe(404)
  })

  it('answers refusals in the SCIM Error schema', async () => {
    const taken = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'sales' })
    expect(taken).toMatchObject({
      status: 409,
      json: { schemas: [ERROR], status: '409', scimType: 'uniqueness', detail: 'SCIM Group already exists' },
    })
    const foreign = await person('zed@globex.test', OTHER)
    const stranger = await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Ops',
      members: [{ value: foreign }],
    })
    expect(stranger.json).toEqual({
      schemas: [ERROR],
      status: '400',
      scimType: 'invalidValue',
      detail: 'One or more Group members are invalid',
    })
    const empty = await scim('POST', '/Groups', { schemas: [GROUP], displayName: '  ' })
    expect(empty.json).toMatchObject({ status: '400', scimType: 'invalidValue' })
    const ops = (await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Ops' })).json as Group
    expect((await patch(ops.id, [{ op: 'replace', path: 'title', value: 'x' }])).json).toMatchObject({
      status: '400',
      scimType: 'invalidPath',
    })
    expect((await patch(ops.id, [{ op: 'remove', path: 'displayName' }])).json).toMatchObject({
      scimType: 'mutability',
    })
    expect((await patch(ops.id, [{ op: 'remove' }])).json).toMatchObject({ scimType: 'noTarget' })
    expect((await patch(ops.id, [{ op: 'replace', path: 'displayName', value: 'Sales' }])).status).toBe(409)
    const badFilter = await scim('GET', `/Groups?filter=${encodeURIComponent('members eq "x"')}`)
    expect(badFilter.json).toMatchObject({ status: '400', scimType: 'invalidFilter' })
    // A token without the groups scopes reads and writes Users only.
    expect((await scim('GET', '/Groups', undefined, READER)).status).toBe(403)
    expect((await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'x' }, READER)).status).toBe(403)
  })

  it('keeps every member of concurrent PATCHes: each is applied on the group as its stream has it', async () => {
    const people = await Promise.all(Array.from({ length: 6 }, (_, n) => person(`crowd${n}@acme.test`)))
    const group = (await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Crowd' })).json as Group
    const answers = await Promise.all(
      people.map((userId) => patch(group.id, [{ op: 'add', path: 'members', value: [{ value: userId }] }])),
    )
    expect(answers.map((answer) => answer.status)).toEqual(people.map(() => 200))
    expect(ids((await scim('GET', `/Groups/${group.id}`)).json)).toEqual([...people].sort())
    expect(await teamMembers(group.id)).toEqual([...people].sort())
  })
})
