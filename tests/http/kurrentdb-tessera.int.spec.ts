/// A whole Tessera on the KurrentDB adapter, its log an in-memory stand-in for the server (the
/// adapter's logic, not KurrentDB itself): sign-up and get-session through the projector and
/// read-your-writes by `$all` position, a duplicate email and slug refused through reservation
/// streams, a sign-out refused at once through the inline hook, and personal data sealed before it
/// reaches the log.

import pino from 'pino'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { createTessera, type Tessera } from '../../app/server/tessera.js'
import { loadConfig } from '../../infra/config/config.js'
import {
  createInMemoryLog,
  type InMemoryLog,
} from '../../infra/event-store/kurrentdb/in-memory-log.fixture.js'
import { freshPglite } from '../support/databases.js'
import { testClient } from '../support/tessera.js'

const COOKIE = 'better-auth.session_token'

let tessera: Tessera
let log: InMemoryLog

beforeEach(async () => {
  log = createInMemoryLog()
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      AUTH_SECRET: 'test-secret-that-is-long-enough-0123456789',
      EVENT_STORE: 'kurrentdb',
      KURRENTDB_URL: 'kurrentdb://unused.invalid:2113?tls=false',
    },
    { cwd: '/nonexistent-tessera-test-dir' },
  )
  tessera = await createTessera({
    config,
    logger: pino({ level: 'silent' }),
    database: await freshPglite(),
    kurrentLog: log,
  })
})

afterEach(async () => {
  await tessera.close()
})

const sessionCookie = (headers: Record<string, unknown>): string => {
  const lines = [headers['set-cookie']].flat().filter((line): line is string => typeof line === 'string')
  const line = lines.find((candidate) => candidate.startsWith(`${COOKIE}=`)) ?? ''
  return line.split(';')[0] ?? ''
}

test('sign-up, get-session, a duplicate refused, sign-out ending the session, nothing personal in the log', async () => {
  const api = testClient(tessera)
  const signUp = (email: string) =>
    api.request('POST', '/sign-up/email', { email, password: 'correct horse battery', name: 'Ada Lovelace' })

  const created = await signUp('ada@example.com')
  expect(created.status).toBe(200)
  const cookie = sessionCookie(created.headers)
  const session = await api.request('GET', '/get-session', undefined, { cookie })
  expect(session.status).toBe(200)
  expect(session.json).toMatchObject({ user: { email: 'ada@example.com', name: 'Ada Lovelace' } })

  const again = await signUp('ada@example.com')
  expect(again.status).toBe(422)
  expect(again.json).toMatchObject({ code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL' })

  const organization = await api.request(
    'POST',
    '/organization/create',
    { name: 'Acme', slug: 'acme' },
    { cookie },
  )
  expect(organization.status).toBe(200)
  const taken = await api.request(
    'POST',
    '/organization/create',
    { name: 'Acme 2', slug: 'acme' },
    { cookie },
  )
  expect(taken.status).toBe(400)
  expect(taken.json).toMatchObject({ code: 'ORGANIZATION_ALREADY_EXISTS' })

  expect((await api.request('POST', '/sign-out', {}, { cookie })).status).toBe(200)
  const after = await api.request('GET', '/get-session', undefined, { cookie })
  expect(after.json).toBeNull()

  const events = log.all.filter((record) => record.stream.startsWith('tessera/'))
  expect(events.map((record) => record.type)).toEqual(
    expect.arrayContaining(['user.registered', 'session.started', 'session.revoked']),
  )
  const reservations = log.all.filter((record) => record.stream.startsWith('tessera.claims/'))
  expect(reservations.length).toBeGreaterThanOrEqual(2)
  const everything = JSON.stringify(log.all.map((record) => [record.data, record.metadata]))
  expect(everything).not.toContain('ada@example.com')
  expect(everything).not.toContain('Ada Lovelace')
})

test('the SCIM team reconciler runs on KurrentDB, its checkpoint kept in the database', async () => {
  const reconciler = tessera.scimTeamReconciler
  expect(reconciler).not.toBeNull()
  const api = testClient(tessera)
  const body = { email: 'bob@example.com', password: 'correct horse battery', name: 'Bob' }
  expect((await api.request('POST', '/sign-up/email', body)).status).toBe(200)
  await reconciler?.runOnce()
  const checkpoint = await tessera.database.db
    .selectFrom('tessera_checkpoints')
    .selectAll()
    .where('name', '=', 'scim-team-reconciler')
    .executeTakeFirst()
  // It has read the log past the sign-up (there is no group to follow): its place is kept.
  const registered = log.all.find((record) => record.type === 'user.registered')
  expect(BigInt(checkpoint?.tx ?? 0)).toBeGreaterThanOrEqual(registered?.position?.commit ?? 1n)
})
