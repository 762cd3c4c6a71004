/// On KurrentDB a SCIM call appends its group's events, then its team's: a process that dies between
/// the two leaves the team behind its group. The reconciler finds those calls in the log and has the
/// team follow them, once, without undoing what an administrator (or a later call) changed since.
/// The KurrentDB adapter runs over its in-memory log; the process "dies" at its organization append
/// (the store refuses every append to the organization's stream, so even the follow-alone fails).

import { describe, expect, test } from 'vitest'
import { type OrganizationCommand, organizationStream } from '../../domain/organization/organization.js'
import { type ScimGroupCommand, scimGroupStream } from '../../domain/scim/scim-group.js'
import type { EventStore, GlobalPosition } from '../../infra/event-store/event-store.js'
import { START } from '../../infra/event-store/event-store.js'
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
import { followAlone, teamCommandsOf, withTeam } from './scim-team-follower.js'
import { createScimTeamReconciler, DEFAULT_GRACE_MS } from './scim-team-reconciler.js'
import { asGroupEvents } from './scim-team-trail.js'

const actor = { type: 'scim' as const, connectionId: 'okta', credentialId: 'primary' }
const request = (correlationId: string) => ({ ...metadata, actor, correlationId })

/** The process dies at the organization's append: the group's events are in, the team's never come. */
const dyingAtTheOrganization = (store: EventStore): EventStore => {
  const dies = (stream: string) => {
    if (stream === organizationStream(ORG)) throw new Error('the process died')
  }
  return {
    ...store,
    async appendToStream(stream, events, options) {
      dies(stream)
      return store.appendToStream(stream, events, options)
    },
    async appendToStreams(appends) {
      const results = []
      for (const { stream, events, options } of appends) {
        dies(stream)
        results.push(await store.appendToStream(stream, events, options))
      }
      return results
    },
  }
}

const setUp = async () => {
  const time = { now: Date.parse(NOW) }
  const store = createKurrentDbEventStore({ log: createInMemoryLog(() => time.now) })
  const clock = () => new Date(time.now)
  const handle = createHandle({ store, projector })
  for (const command of seed) await handle(organizations, organizationStream(ORG), command, { metadata })
  const live = { handle, store, organizations, clock }
  const dying = dyingAtTheOrganization(store)
  const crashing = { handle: createHandle({ store: dying, projector }), store: dying, organizations, clock }
  /** A reconciler with its checkpoint (kept across reconcilers, as the database keeps it). */
  const saved: { position: GlobalPosition } = { position: START }
  const reconciler = (seen: EventStore = store) => {
    const warnings: string[] = []
    const created = createScimTeamReconciler({
      team: { handle: createHandle({ store: seen, projector }), store: seen, organizations, clock },
      exclusively: (work) =>
        work({
          read: async () => saved.position,
          write: async (position) => {
            saved.position = position
          },
        }),
      logger: { warn: (_details, message) => warnings.push(message) },
    })
    return {
      async runOnce() {
        await created.runOnce()
        expect(warnings).toEqual([])
      },
    }
  }
  const admin = (command: OrganizationCommand) =>
    handle(organizations, organizationStream(ORG), command, { metadata: request('admin') })
  const later = (ms: number) => {
    time.now += ms
  }
  return { store, live, crashing, reconciler, admin, later, saved, clock }
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

const removeMembers = (...userIds: string[]): ScimGroupCommand => ({
  type: 'change-scim-group',
  ...facts,
  operations: [{ op: 'remove-members', userIds }],
})

const removeFromTeam = (userId: string): OrganizationCommand => ({
  type: 'remove-team-member',
  actorUserId: null,
  teamId: GROUP,
  userId,
})

const addToTeam = (userId: string): OrganizationCommand => ({
  type: 'add-team-member',
  actorUserId: null,
  teamId: GROUP,
  userId,
  teamMemberId: `tm-${GROUP}-${userId}`,
  now: NOW,
})

const teamEvents = async (store: EventStore) =>
  (await store.readStream(organizationStream(ORG)))
    .filter((event) => event.type.startsWith('organization.team'))
    .map((event) => [event.type, (event.data as { userId?: string }).userId ?? null])

const DUE = DEFAULT_GRACE_MS + 1000

describe('the SCIM team reconciler on KurrentDB', () => {
  test('a group created by a call that died gets its team and members, once its grace is over', async () => {
    const { store, crashing, reconciler, later } = await setUp()
    await expect(
      withTeam(crashing, request('create'), ORG, GROUP, createGroup(['ada', 'bob']), true),
    ).rejects.toThrow('the process died')
    expect(await teamEvents(store)).toEqual([])
    // Within the grace period the live call may still be about to append: nothing yet.
    await reconciler().runOnce()
    expect(await teamEvents(store)).toEqual([])
    later(DUE)
    await reconciler().runOnce()
    expect(await teamEvents(store)).toEqual([
      ['organization.team-created', null],
      ['organization.team-member-added', 'ada'],
      ['organization.team-member-added', 'bob'],
    ])
    // The call's correlation id (what a later pass checks), its SCIM connection, caused by the group.
    const [groupCreated] = await store.readStream(scimGroupStream(GROUP))
    const followed = (await store.readStream(organizationStream(ORG))).at(-1)?.metadata
    expect(followed).toMatchObject({ actor, correlationId: 'create', causationId: groupCreated?.id })
  })

  test('members added and removed by a call that died join and leave the team', async () => {
    const { store, live, crashing, reconciler, later } = await setUp()
    await withTeam(live, request('create'), ORG, GROUP, createGroup(['ada']), true)
    await expect(withTeam(crashing, request('add'), ORG, GROUP, addMembers('bob'), false)).rejects.toThrow()
    await expect(
      withTeam(crashing, request('remove'), ORG, GROUP, removeMembers('ada'), false),
    ).rejects.toThrow()
    later(DUE)
    await reconciler().runOnce()
    expect(await teamEvents(store)).toEqual([
      ['organization.team-created', null],
      ['organization.team-member-added', 'ada'],
      ['organization.team-member-added', 'bob'],
      ['organization.team-member-removed', 'ada'],
    ])
  })

  test('a group deleted by a call that died takes its team with it', async () => {
    const { store, live, crashing, reconciler, later } = await setUp()
    await withTeam(live, request('create'), ORG, GROUP, createGroup(['ada']), true)
    const deletion: ScimGroupCommand = { type: 'delete-scim-group', connectionId: facts.connectionId }
    await expect(withTeam(crashing, request('delete'), ORG, GROUP, deletion, false)).rejects.toThrow()
    later(DUE)
    await reconciler().runOnce()
    expect((await teamEvents(store)).slice(-2)).toEqual([
      ['organization.team-member-removed', 'ada'],
      ['organization.team-removed', null],
    ])
  })

  test("an administrator's later change to the team is not undone", async () => {
    const { store, live, crashing, reconciler, admin, later } = await setUp()
    await withTeam(live, request('create'), ORG, GROUP, createGroup(['ada']), true)
    // Followed live, then changed by an administrator: drift, which stays.
    await admin(removeFromTeam('ada'))
    // A call that died adds bob; an administrator then adds him and takes him out again.
    await expect(withTeam(crashing, request('add'), ORG, GROUP, addMembers('bob'), false)).rejects.toThrow()
    await admin(addToTeam('bob'))
    await admin(removeFromTeam('bob'))
    const before = await teamEvents(store)
    later(DUE)
    await reconciler().runOnce()
    expect(await teamEvents(store)).toEqual(before)
  })

  test('a call whose team commands were all drift is not followed later over a newer change', async () => {
    const { store, live, reconciler, admin, later } = await setUp()
    await withTeam(live, request('create'), ORG, GROUP, createGroup(['ada']), true)
    await admin(removeFromTeam('ada'))
    // The group lets ada go: her team membership is already gone, so no team event is appended.
    await withTeam(live, request('remove'), ORG, GROUP, removeMembers('ada'), false)
    // Then an administrator puts her back in the team.
    await admin(addToTeam('ada'))
    const before = await teamEvents(store)
    later(DUE)
    await reconciler().runOnce()
    expect(await teamEvents(store)).toEqual(before)
  })

  test('running again, or again from the start after its own crash, changes nothing', async () => {
    const { store, live, crashing, reconciler, later, saved } = await setUp()
    await withTeam(live, request('create'), ORG, GROUP, createGroup([]), true)
    await expect(
      withTeam(crashing, request('add'), ORG, GROUP, addMembers('ada', 'bob'), false),
    ).rejects.toThrow()
    later(DUE)
    const once = reconciler()
    await once.runOnce()
    const followed = await store.readStream(organizationStream(ORG))
    await once.runOnce()
    await reconciler().runOnce()
    // A reconciler that died before saving its checkpoint reads the log again from the start.
    saved.position = START
    await reconciler().runOnce()
    expect(await store.readStream(organizationStream(ORG))).toEqual(followed)
    expect(await teamEvents(store)).toEqual([
      ['organization.team-created', null],
      ['organization.team-member-added', 'ada'],
      ['organization.team-member-added', 'bob'],
    ])
  })

  test('its checkpoint stays before a call it has not followed yet, and passes it after', async () => {
    const { store, crashing, reconciler, later, saved } = await setUp()
    await expect(
      withTeam(crashing, request('create'), ORG, GROUP, createGroup(['ada']), true),
    ).rejects.toThrow()
    const [groupCreated] = await store.readStream(scimGroupStream(GROUP))
    await reconciler().runOnce()
    expect(saved.position).not.toEqual(START)
    expect(saved.position.tx < (groupCreated?.position.tx ?? 0n)).toBe(true)
    later(DUE)
    await reconciler().runOnce()
    const last = (await store.readStream(organizationStream(ORG))).at(-1)
    expect(saved.position).toEqual(last?.position)
  })

  test('a live call whose team lands between its check and its append is not followed twice', async () => {
    const { store, live, crashing, reconciler, later } = await setUp()
    await expect(
      withTeam(crashing, request('create'), ORG, GROUP, createGroup(['ada']), true),
    ).rejects.toThrow()
    const [created] = await store.readStream(scimGroupStream(GROUP))
    // A slow live call appends its team right after the reconciler has looked at the organization.
    const slowCall = { appended: false }
    const racing: EventStore = {
      ...store,
      async readStream(stream, options) {
        const read = await store.readStream(stream, options)
        if (stream === organizationStream(ORG) && (options?.afterVersion ?? 0) > 0 && !slowCall.appended) {
          slowCall.appended = true
          const commands = teamCommandsOf(asGroupEvents(created ? [created] : []), NOW, () => 'tm-late')
          await followAlone(live, request('create'), ORG, commands)
        }
        return read
      },
    }
    later(DUE)
    await reconciler(racing).runOnce()
    expect(slowCall.appended).toBe(true)
    expect(await teamEvents(store)).toEqual([
      ['organization.team-created', null],
      ['organization.team-member-added', 'ada'],
    ])
  })
})
