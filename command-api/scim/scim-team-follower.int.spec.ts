/// A SCIM group and its team are decided on the same versions of their streams and appended
/// together: an organization change that lands between the team-side decision and the append (a
/// member leaving) makes the call decide again, so the group never records someone its team skipped.

import { afterEach, describe, expect, test } from 'vitest'
import { organizationStream } from '../../domain/organization/organization.js'
import { type ScimGroupCommand, scimGroupStream } from '../../domain/scim/scim-group.js'
import type { EventStore } from '../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { freshPglite } from '../../tests/support/databases.js'
import { createHandle } from '../shared/handle.js'
import {
  addMembers,
  facts,
  GROUP,
  metadata,
  NOW,
  ORG,
  organizations,
  projector,
  seed,
} from './scim-team-follower.fixture.js'
import { withTeam } from './scim-team-follower.js'

const opened: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close()
})

/** An organization of three with a group "Engineering" (no members yet) and its team. */
const setUp = async () => {
  const database = await freshPglite()
  opened.push(database)
  const store = createSqlEventStore(database.db, { singleBackend: true })
  const handle = createHandle({ store, projector })
  for (const command of seed) await handle(organizations, organizationStream(ORG), command, { metadata })
  const clock = () => new Date(NOW)
  const create: ScimGroupCommand = {
    type: 'create-scim-group',
    groupId: GROUP,
    organizationId: ORG,
    displayName: 'Engineering',
    externalId: null,
    members: [],
    ...facts,
  }
  await withTeam({ handle, store, organizations, clock }, metadata, ORG, GROUP, create, true)
  return { store, handle, clock }
}

const teamOf = async (store: EventStore) =>
  (await store.readStream(organizationStream(ORG)))
    .filter((event) => event.type === 'organization.team-member-added')
    .map((event) => (event.data as { teamId: string; userId: string }).userId)

describe('a SCIM group and its team, appended together', () => {
  test('the members join the group and its team in one append', async () => {
    const { store, handle, clock } = await setUp()
    await withTeam(
      { handle, store, organizations, clock },
      metadata,
      ORG,
      GROUP,
      addMembers('ada', 'bob'),
      false,
    )
    const [changed] = (await store.readStream(scimGroupStream(GROUP))).slice(-1)
    const added = (await store.readStream(organizationStream(ORG))).slice(-2)
    expect(changed?.data).toMatchObject({ added: ['ada', 'bob'] })
    expect(added.map((event) => event.type)).toEqual([
      'organization.team-member-added',
      'organization.team-member-added',
    ])
    expect(added.every((event) => event.position.tx === changed?.position.tx)).toBe(true)
  })

  test('a member who leaves between the decision and the append is refused, not skipped', async () => {
    const { store, clock } = await setUp()
    // Another process removes bob from the organization just before this call's first append.
    let interfered = false
    const racing: EventStore = {
      ...store,
      async appendToStreams(appends) {
        if (!interfered) {
          interfered = true
          const other = createHandle({ store, projector })
          await other(
            organizations,
            organizationStream(ORG),
            { type: 'remove-member', actorUserId: null, target: { userId: 'bob' } },
            { metadata },
          )
        }
        return store.appendToStreams(appends)
      },
    }
    const handle = createHandle({ store: racing, projector })
    const call = withTeam(
      { handle, store: racing, organizations, clock },
      metadata,
      ORG,
      GROUP,
      addMembers('ada', 'bob'),
      false,
    )
    await expect(call).rejects.toMatchObject({ code: 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION' })
    expect(interfered).toBe(true)
    // Neither the group nor the team changed: no half-followed group.
    expect((await store.readStream(scimGroupStream(GROUP))).map((event) => event.type)).toEqual([
      'scim.group-created',
    ])
    expect(await teamOf(store)).toEqual([])
  })
})
