/// Events past their first version on a real SQL store (issue 31): a new organization event is
/// stored with arrays and its version; an event stored before (comma-separated text, no version)
/// stays as it was in the log and is read in the new shape; and the read models rebuilt from the
/// old log equal those rebuilt from the same history written today.

import { type Kysely, sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import type { EventMetadata } from '../../domain/shared/metadata.js'
import type { EventToAppend } from '../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { readModelProjections } from '../../projections/all.js'
import type { Database } from '../../projections/database.js'
import { replay } from '../../projections/runner/projector.js'
import { freshPglite } from '../support/databases.js'
import { snapshotTables } from '../support/table-snapshot.js'

const O = 'o-versions'
const T0 = '2026-11-01T00:00:00.000Z'
const metadata: EventMetadata = {
  actor: { type: 'user', userId: 'u1' },
  ip: null,
  userAgent: null,
  correlationId: 'c1',
  causationId: null,
  at: T0,
}
const STREAM = `organization-${O}`
const ids = Array.from({ length: 5 }, (_, i) => `00000000-0000-4000-8000-00000000000${i}`)
const event = (index: number, type: string, data: object): EventToAppend =>
  ({ id: ids[index], type, data, metadata }) as EventToAppend

const created = event(0, 'organization.created', {
  organizationId: O,
  name: 'Acme',
  slug: 'acme',
  logo: null,
  metadata: null,
  createdAt: T0,
  createdBy: 'u1',
})
const teams = ['t1', 't2'].map((teamId, i) =>
  event(1 + i, 'organization.team-created', { organizationId: O, teamId, name: teamId, createdAt: T0 }),
)
const member = { organizationId: O, memberId: 'm1', userId: 'u1', createdAt: T0, invitationId: null }
const invitation = {
  organizationId: O,
  invitationId: 'i1',
  email: 'new@example.com',
  inviteeSubject: 'invitee-1',
  inviterId: 'u1',
  expiresAt: '2030-01-01T00:00:00.000Z',
  createdAt: T0,
}

/** The same history as a server wrote it before version 2, and as one writes it today. */
const versionOne = [
  created,
  ...teams,
  event(3, 'organization.member-added', { ...member, role: 'admin,member' }),
  event(4, 'organization.invitation-created', { ...invitation, role: 'member,auditor', teamId: 't1,t2' }),
]
const versionTwo = [
  created,
  ...teams,
  event(3, 'organization.member-added', { ...member, roles: ['admin', 'member'] }),
  event(4, 'organization.invitation-created', {
    ...invitation,
    roles: ['member', 'auditor'],
    teamIds: ['t1', 't2'],
  }),
]

/** Writes events as the old code did: straight into the log, without a version. */
const writeAsBefore = async (db: Kysely<unknown>, events: readonly EventToAppend[]) => {
  for (const [index, { id, type, data }] of events.entries())
    await sql`insert into tessera_events (event_id, stream_id, stream_version, type, data, metadata)
      values (${id}::uuid, ${STREAM}, ${index + 1}, ${type}, ${JSON.stringify(data)}::jsonb, ${JSON.stringify(metadata)}::jsonb)`.execute(
      db,
    )
  await sql`insert into tessera_streams (stream_id, version) values (${STREAM}, ${events.length})`.execute(db)
}

const rawRows = async (db: Kysely<unknown>) =>
  (
    await sql<{ type: string; data: Record<string, unknown>; metadata: EventMetadata }>`
      select type, data, metadata from tessera_events order by stream_version`.execute(db)
  ).rows

const ORGANIZATION_TABLES = [
  'organizations',
  'organization_members',
  'organization_invitations',
  'organization_teams',
  'organization_activity',
]
const withoutPositions = (snapshot: Record<string, Record<string, unknown>[]>) =>
  Object.fromEntries(
    Object.entries(snapshot).map(([table, rows]) => [
      table,
      rows.map((row) =>
        Object.fromEntries(Object.entries(row).filter(([key]) => !key.startsWith('position'))),
      ),
    ]),
  )

describe('organization events of version 2 on the SQL store', () => {
  const opened: { close(): Promise<void> }[] = []
  afterAll(async () => {
    for (const database of opened) await database.close()
  })
  const fresh = async () => {
    const database = await freshPglite()
    opened.push(database)
    return {
      db: database.db as Kysely<unknown>,
      store: createSqlEventStore(database.db, { singleBackend: true }),
    }
  }

  it('stores a new event with arrays and its version', async () => {
    const { db, store } = await fresh()
    await store.appendToStream(STREAM, versionTwo, { expectedVersion: 'no_stream' })
    const [, , , added, invited] = await rawRows(db)
    expect(added?.data).toMatchObject({ roles: ['admin', 'member'] })
    expect(added?.data).not.toHaveProperty('role')
    expect(added?.metadata.schemaVersion).toBe(2)
    expect(invited?.data).toMatchObject({ roles: ['member', 'auditor'], teamIds: ['t1', 't2'] })
    expect((await rawRows(db))[0]?.metadata).not.toHaveProperty('schemaVersion')
  })

  it('reads an old event in the new shape, and leaves the log as it was written', async () => {
    const { db, store } = await fresh()
    await writeAsBefore(db, versionOne)
    const before = await rawRows(db)
    const [, , , added, invited] = await store.readStream(STREAM)
    expect(added?.data).toEqual({ ...member, roles: ['admin', 'member'] })
    expect(invited?.data).toMatchObject({ roles: ['member', 'auditor'], teamIds: ['t1', 't2'] })
    const all = await store.readAll({ tx: 0n, seq: 0n }, 100)
    expect(all.map((e) => e.data)).toEqual((await store.readStream(STREAM)).map((e) => e.data))
    expect(await rawRows(db)).toEqual(before)
    expect(before[3]?.data).toMatchObject({ role: 'admin,member' })
  })

  it('rebuilds from the old log the read models the same history written today gives', async () => {
    const old = await fresh()
    await writeAsBefore(old.db, versionOne)
    const today = await fresh()
    await today.store.appendToStream(STREAM, versionTwo, { expectedVersion: 'no_stream' })
    for (const { db, store } of [old, today])
      await replay({ db: db as Kysely<Database>, store, projections: readModelProjections })
    const rebuilt = withoutPositions(await snapshotTables(old.db, ORGANIZATION_TABLES))
    expect(rebuilt).toEqual(withoutPositions(await snapshotTables(today.db, ORGANIZATION_TABLES)))
    expect(rebuilt.organization_members).toMatchObject([{ role: 'admin,member' }])
    expect(rebuilt.organization_invitations).toMatchObject([{ role: 'member,auditor', team_id: 't1,t2' }])
  })
})
