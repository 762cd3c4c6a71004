/// SCIM Groups map to the organization's teams: with teams turned off, a group is refused in the
/// SCIM Error schema (403, SCIM_GROUPS_NEED_TEAMS' words) and nothing is written, while Users still
/// provision as before.

import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signUp } from '../support/organizations.js'
import { oktaConnection, SCIM_ERROR, SCIM_GROUP, SCIM_USER, scimClient } from '../support/scim-client.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const NEED_TEAMS = 'Groups map to teams, and teams are turned off for this organization; provision Users only'

describe('SCIM Groups with teams turned off (pglite)', () => {
  let tessera: TestTessera

  beforeAll(async () => {
    tessera = await startTessera({
      features: {
        organization: { teams: { enabled: false } },
        scim: oktaConnection,
      },
    })
    const owner = await signUp(tessera, 'owner')
    await owner.post('/organization/create', { name: 'Acme', slug: 'acme' })
  }, 240_000)
  afterAll(() => tessera?.cleanup())

  const scim = scimClient(() => tessera)

  const eventCount = async () =>
    (await sql<{ n: string }>`select count(*)::text as n from tessera_events`.execute(tessera.ctx.db)).rows[0]
      ?.n

  it('refuses a group with SCIM_GROUPS_NEED_TEAMS and writes nothing; Users still provision', async () => {
    const ada = await scim('POST', '/Users', {
      schemas: [SCIM_USER],
      userName: 'ada@acme.test',
      emails: [{ value: 'ada@acme.test' }],
    })
    expect(ada.status, JSON.stringify(ada.json)).toBe(201)
    const eventsBefore = await eventCount()

    const refused = await scim('POST', '/Groups', {
      schemas: [SCIM_GROUP],
      displayName: 'Engineering',
      members: [{ value: (ada.json as { id: string }).id }],
    })
    expect(refused).toEqual({
      status: 403,
      json: { schemas: [SCIM_ERROR], status: '403', detail: NEED_TEAMS },
    })

    expect(await eventCount()).toBe(eventsBefore)
    expect((await scim('GET', '/Groups')).json).toMatchObject({ totalResults: 0 })
    expect(await tessera.ctx.db.selectFrom('organization_teams').select('id').execute()).toEqual([])
  })
})
