/// On KurrentDB a group and its team are not one transaction: the adapter appends stream after
/// stream, so the group's events can go in while the organization's append fails on a concurrent
/// change (another instance adding a member). The team then follows the group's events on its own:
/// it never trails its group. The KurrentDB adapter runs over its in-memory log (the adapter's
/// logic, not a KurrentDB server), and the concurrent change lands between the two appends.

import { describe, expect, test } from 'vitest'
import { type OrganizationCommand, organizationStream } from '../../domain/organization/organization.js'
import { type ScimGroupCommand, scimGroupStream } from '../../domain/scim/scim-group.js'
import type { EventStore } from '../../infra/event-store/event-store.js'
import { createInMemoryLog } from '../../infra/event-store/kurrentdb/in-memory-log.fixture.js'
import { createKurrentDbEventStore } from '../../infra/event-store/kurrentdb/kurrentdb-event-store.js'
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

const request = (correlationId: string) => ({ ...metadata, correlationId })

/** Another instance adds cy to the organization: the organization's stream moves. */
const cyJoins: OrganizationCommand = {
  type: 'add-member',
  actorUserId: null,
  memberId: 'm-cy',
  userId: 'cy',
  userExists: true,
  seat: null,
  roles: ['member'],
  teamId: null,
  teamMemberId: 'tm-cy',
  now: NOW,
}

/**
 * The adapter's own appendToStreams (one stream after the other), with the other instance's
 * change landing once, right before the organization's append.
 */
const racingOnTheOrganization = (store: EventStore) => {
  const other = createHandle({ store, projector })
  const race = { interfered: false }
  const racing: EventStore = {
    ...store,
    async appendToStreams(appends) {
      const results = []
      for (const { stream, events, options } of appends) {
        if (stream === organizationStream(ORG) && !race.interfered) {
          race.interfered = true
          await other(organizations, organizationStream(ORG), cyJoins, { metadata: request('other') })
        }
        results.push(await store.appendToStream(stream, events, options))
      }
      return results
    },
  }
  return { racing, race }
}

const setUp = async () => {
  const store = createKurrentDbEventStore({ log: createInMemoryLog() })
  const handle = createHandle({ store, projector })
  for (const command of seed) await handle(organizations, organizationStream(ORG), command, { metadata })
  return { store, clock: () => new Date(NOW) }
}

const createGroup = (members: string[]): ScimGroupCommand => ({
  type: 'create-scim-group',
  groupId: GROUP,
  organizationId: ORG,
  displayName: 'Engineering',
  externalId: null,
  members,
  ...facts,
})

const teamEvents = async (store: EventStore) =>
  (await store.readStream(organizationStream(ORG)))
    .filter((event) => event.type.startsWith('organization.team'))
    .map((event) => [event.type, (event.data as { userId?: string }).userId ?? null])

describe('a SCIM group and its team on KurrentDB (no multi-stream transaction)', () => {
  test('a group created while the organization moves gets its team and members', async () => {
    const { store, clock } = await setUp()
    const { racing, race } = racingOnTheOrganization(store)
    const handle = createHandle({ store: racing, projector })
    const ctx = { handle, store: racing, organizations, clock }
    await withTeam(ctx, request('create'), ORG, GROUP, createGroup(['ada']), true)
    expect(race.interfered).toBe(true)
    expect((await store.readStream(scimGroupStream(GROUP))).map((event) => event.type)).toEqual([
      'scim.group-created',
    ])
    expect(await teamEvents(store)).toEqual([
      ['organization.team-created', null],
      ['organization.team-member-added', 'ada'],
    ])
  })

  test('members added while the organization moves join the team too, once', async () => {
    const { store, clock } = await setUp()
    const quiet = createHandle({ store, projector })
    const calm = { handle: quiet, store, organizations, clock }
    await withTeam(calm, request('create'), ORG, GROUP, createGroup([]), true)
    const { racing, race } = racingOnTheOrganization(store)
    const handle = createHandle({ store: racing, projector })
    const ctx = { handle, store: racing, organizations, clock }
    await withTeam(ctx, request('add'), ORG, GROUP, addMembers('ada', 'bob'), false)
    expect(race.interfered).toBe(true)
    const group = await store.readStream(scimGroupStream(GROUP))
    expect(group.map((event) => event.type)).toEqual(['scim.group-created', 'scim.group-members-changed'])
    expect(await teamEvents(store)).toEqual([
      ['organization.team-created', null],
      ['organization.team-member-added', 'ada'],
      ['organization.team-member-added', 'bob'],
    ])
    // The next change follows as usual: bob leaves the group and the team.
    const removal: ScimGroupCommand = {
      type: 'change-scim-group',
      ...facts,
      operations: [{ op: 'remove-members', userIds: ['bob'] }],
    }
    await withTeam(calm, request('remove'), ORG, GROUP, removal, false)
    expect((await teamEvents(store)).at(-1)).toEqual(['organization.team-member-removed', 'bob'])
  })

  test('a group deleted while the organization moves takes its team with it', async () => {
    const { store, clock } = await setUp()
    const calm = { handle: createHandle({ store, projector }), store, organizations, clock }
    await withTeam(calm, request('create'), ORG, GROUP, createGroup(['ada']), true)
    const { racing, race } = racingOnTheOrganization(store)
    const ctx = { handle: createHandle({ store: racing, projector }), store: racing, organizations, clock }
    const deletion: ScimGroupCommand = { type: 'delete-scim-group', connectionId: facts.connectionId }
    await withTeam(ctx, request('delete'), ORG, GROUP, deletion, false)
    expect(race.interfered).toBe(true)
    expect((await store.readStream(scimGroupStream(GROUP))).at(-1)?.type).toBe('scim.group-deleted')
    expect((await teamEvents(store)).at(-1)).toEqual(['organization.team-removed', null])
  })

  test('a group deleted after an administrator removed its team goes alone', async () => {
    const { store, clock } = await setUp()
    const handle = createHandle({ store, projector })
    const ctx = { handle, store, organizations, clock }
    await withTeam(ctx, request('create'), ORG, GROUP, createGroup([]), true)
    const removeTeam: OrganizationCommand = {
      type: 'remove-team',
      actorUserId: null,
      teamId: GROUP,
      activeTeamId: null,
    }
    await handle(organizations, organizationStream(ORG), removeTeam, { metadata: request('admin') })
    const deletion: ScimGroupCommand = { type: 'delete-scim-group', connectionId: facts.connectionId }
    await withTeam(ctx, request('delete'), ORG, GROUP, deletion, false)
    expect((await store.readStream(scimGroupStream(GROUP))).at(-1)?.type).toBe('scim.group-deleted')
    expect((await teamEvents(store)).map(([type]) => type)).toEqual([
      'organization.team-created',
      'organization.team-removed',
    ])
  })
})
