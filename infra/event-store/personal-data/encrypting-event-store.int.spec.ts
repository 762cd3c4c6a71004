/// The encrypting store over the SQL store on PGlite and PostgreSQL: what goes in comes out, the
/// raw rows hold no personal value, claims are hashed yet unique, and erasing one user leaves
/// nulls (marked `erased`) in that user's events only.

import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { EventMetadata } from '../../../domain/shared/metadata.js'
import { describeEachDatabase } from '../../../tests/support/databases.js'
import type { OpenDatabase } from '../../db/database.js'
import { type EventStore, type EventToAppend, START, UniqueClaimConflictError } from '../event-store.js'
import { createSqlEventStore } from '../sql-event-store.js'
import { withPersonalDataEncryption } from './encrypting-event-store.js'
import { eraseSubject } from './erasure.js'
import { createKeyring, type Keyring, SubjectErasedError } from './keyring.js'

const SECRET = 'encrypting-store-test-secret-0123456789'
const UA = 'Mozilla/5.0 (Personal Browser 7)'
const IP = '203.0.113.77'
const EMAIL_SCOPE = 'user.email'

const metadata = (userId: string | null): EventMetadata => ({
  actor: userId ? { type: 'user', userId } : { type: 'anonymous' },
  ip: IP,
  userAgent: UA,
  correlationId: randomUUID(),
  causationId: null,
  at: '2030-01-01T00:00:00.000Z',
})

const registered = (userId: string, email: string, name: string): EventToAppend => ({
  id: randomUUID(),
  type: 'user.registered',
  data: {
    userId,
    email,
    name,
    image: null,
    emailVerified: false,
    credential: { accountId: `acc-${userId}`, passwordHash: `salt:hash-of-${userId}` },
  },
  metadata: metadata(null),
})

const sessionStarted = (userId: string): EventToAppend => ({
  id: randomUUID(),
  type: 'session.started',
  data: {
    sessionId: `s-${userId}`,
    userId,
    tokenHash: 'ab'.repeat(32),
    expiresAt: '2030-01-08T00:00:00.000Z',
    ipAddress: IP,
    userAgent: UA,
    rememberMe: true,
  },
  metadata: metadata(userId),
})

const claim = (op: 'claim' | 'release', email: string, owner: string) => ({
  op,
  scope: EMAIL_SCOPE,
  value: email,
  owner,
})

describeEachDatabase('personal data encryption', (fresh) => {
  let database: OpenDatabase
  let keyring: Keyring
  let store: EventStore
  beforeEach(async () => {
    database = await fresh()
    keyring = createKeyring(database.db, SECRET)
    store = withPersonalDataEncryption(createSqlEventStore(database.db), keyring)
  })
  afterEach(async () => {
    await store.close()
    await database.close()
  })

  const signUp = async (userId: string, email: string, name: string) => {
    const events = [registered(userId, email, name)]
    await store.appendToStream(`user-${userId}`, events, {
      expectedVersion: 'no_stream',
      uniqueClaims: [claim('claim', email, userId)],
    })
    const session = sessionStarted(userId)
    await store.appendToStream(`session-s-${userId}`, [session], { expectedVersion: 'no_stream' })
    return [...events, session]
  }

  const rawText = async (query: 'events' | 'claims'): Promise<string> => {
    const { rows } = await (query === 'events'
      ? sql<{ text: string }>`select data::text || metadata::text as text from tessera_events`
      : sql<{ text: string }>`select scope || ' ' || value || ' ' || owner as text from tessera_unique_claims`
    ).execute(database.db)
    return rows.map((row) => row.text).join('\n')
  }

  it('reads back exactly what was appended, while the rows hold none of it', async () => {
    const appended = await signUp('u1', 'grace@example.com', 'Grace Hopper')
    const copy = structuredClone(appended)
    const read = [...(await store.readStream('user-u1')), ...(await store.readStream('session-s-u1'))]
    expect(read.map(({ id, type, data, metadata }) => ({ id, type, data, metadata }))).toEqual(appended)
    expect(await store.readAll(START, 10)).toEqual(read)
    // The caller's events are not sealed in place (the command handler returns them).
    expect(appended).toEqual(copy)

    const raw = await rawText('events')
    for (const secret of ['grace@example.com', 'Grace Hopper', UA, IP, 'hash-of-u1'])
      expect(raw).not.toContain(secret)
    expect(raw).toContain('u1')
  })

  it('leaves events without personal data as they are', async () => {
    const event: EventToAppend = {
      id: randomUUID(),
      type: 'test.noted',
      data: { n: 1 },
      metadata: { ...metadata(null), ip: null, userAgent: null, actor: { type: 'system' } },
    }
    await store.appendToStream('misc', [event], { expectedVersion: 'any' })
    const [read] = await store.readStream('misc')
    expect(read?.metadata).toEqual(event.metadata)
    expect(Object.keys(read?.metadata ?? {})).not.toContain('erased')
    expect(
      await sql<{ n: number }>`select (data->>'n')::int as n from tessera_events`.execute(database.db),
    ).toMatchObject({
      rows: [{ n: 1 }],
    })
  })

  it('seals the ip and user agent of events that carry a userId or a user actor', async () => {
    await keyring.keyFor('u1')
    const refreshed: EventToAppend = {
      id: randomUUID(),
      type: 'session.refreshed',
      data: { sessionId: 's-u1', expiresAt: '2030-01-09T00:00:00.000Z' },
      metadata: metadata('u1'),
    }
    await store.appendToStream('session-s-u1', [refreshed], { expectedVersion: 'any' })
    expect(await rawText('events')).not.toContain(UA)
    const [read] = await store.readStream('session-s-u1')
    expect(read?.metadata).toEqual(refreshed.metadata)
  })

  it('a read without personal metadata opens the data and gives the ip and user agent null', async () => {
    await signUp('u1', 'grace@example.com', 'Grace Hopper')
    const options = { withoutPersonalMetadata: true }
    const [registeredRead] = await store.readStream('user-u1', options)
    expect(registeredRead?.data).toMatchObject({ email: 'grace@example.com', name: 'Grace Hopper' })
    expect(registeredRead?.metadata).toMatchObject({ ip: null, userAgent: null })
    const [started] = await store.readStream('session-s-u1', options)
    // Its data's own ip and user agent are the data's: opened.
    expect(started?.data).toMatchObject({ ipAddress: IP, userAgent: UA })
    expect(started?.metadata).toMatchObject({
      ip: null,
      userAgent: null,
      actor: { type: 'user', userId: 'u1' },
    })
    // An event with only sealed metadata needs no key at all.
    const refreshed: EventToAppend = {
      id: randomUUID(),
      type: 'session.refreshed',
      data: { sessionId: 's-u1', expiresAt: '2030-01-09T00:00:00.000Z' },
      metadata: metadata('u1'),
    }
    await store.appendToStream('session-s-u1', [refreshed], { expectedVersion: 1 })
    const tail = await store.readStream('session-s-u1', { ...options, afterVersion: 1 })
    expect(tail.map(({ data, metadata }) => ({ data, metadata }))).toEqual([
      { data: refreshed.data, metadata: { ...refreshed.metadata, ip: null, userAgent: null } },
    ])
    // The same events read as before without the option.
    expect((await store.readStream('session-s-u1')).map((event) => event.metadata.ip)).toEqual([IP, IP])
    await eraseSubject(keyring, 'u1')
    const [erased] = await store.readStream('user-u1', options)
    expect(erased?.data).toMatchObject({ email: null, name: null })
    expect(erased?.metadata).toMatchObject({ ip: null, userAgent: null, erased: true })
  })

  it('keeps the email out of the claims table, yet one address has one owner', async () => {
    await signUp('u1', 'grace@example.com', 'Grace Hopper')
    expect(await rawText('claims')).not.toContain('grace@example.com')
    expect(await store.claimOwner(EMAIL_SCOPE, 'grace@example.com')).toBe('u1')
    expect(await store.claimOwner(EMAIL_SCOPE, 'ada@example.com')).toBeNull()

    const conflict = store.appendToStream('user-u2', [registered('u2', 'grace@example.com', 'Impostor')], {
      expectedVersion: 'no_stream',
      uniqueClaims: [claim('claim', 'grace@example.com', 'u2')],
    })
    // The error names the value the caller passed, not the hash at rest.
    await expect(conflict).rejects.toEqual(new UniqueClaimConflictError(EMAIL_SCOPE, 'grace@example.com'))
    expect(await store.readStream('user-u2')).toEqual([])

    // Released by its owner, the address can be taken again.
    await store.appendToStream(
      'user-u1',
      [{ id: randomUUID(), type: 'user.deleted', data: { userId: 'u1' }, metadata: metadata('u1') }],
      {
        expectedVersion: 'any',
        uniqueClaims: [claim('release', 'grace@example.com', 'u1')],
      },
    )
    expect(await store.claimOwner(EMAIL_SCOPE, 'grace@example.com')).toBeNull()
    await signUp('u2', 'grace@example.com', 'Grace Again')
    expect(await store.claimOwner(EMAIL_SCOPE, 'grace@example.com')).toBe('u2')
  })

  it('after erasure, reads give null personal fields marked erased; other users are untouched', async () => {
    const grace = await signUp('u1', 'grace@example.com', 'Grace Hopper')
    const ada = await signUp('u2', 'ada@example.com', 'Ada Lovelace')
    await eraseSubject(keyring, 'u1')

    const [user, session] = [
      ...(await store.readStream('user-u1')),
      ...(await store.readStream('session-s-u1')),
    ]
    expect(user?.data).toEqual({
      userId: 'u1',
      email: null,
      name: null,
      image: null,
      emailVerified: false,
      credential: { accountId: 'acc-u1', passwordHash: null },
    })
    expect(session?.data).toMatchObject({
      userId: 'u1',
      ipAddress: null,
      userAgent: null,
      tokenHash: 'ab'.repeat(32),
    })
    for (const event of [user, session]) {
      expect(event?.metadata).toMatchObject({
        ip: null,
        userAgent: null,
        erased: true,
        at: grace[0]?.metadata.at,
      })
    }
    expect(session?.metadata.actor).toEqual({ type: 'user', userId: 'u1' })

    const others = [...(await store.readStream('user-u2')), ...(await store.readStream('session-s-u2'))]
    expect(others.map(({ id, type, data, metadata }) => ({ id, type, data, metadata }))).toEqual(ada)
    const all = await store.readAll(START, 10)
    expect(all.filter((event) => event.metadata.erased).map((event) => event.id)).toEqual(
      grace.map((event) => event.id),
    )

    // An erased subject never gets a fresh key: a later event with its personal data is refused,
    // and the old ones stay erased.
    const late = sessionStarted('u1')
    await expect(
      store.appendToStream('session-late', [late], { expectedVersion: 'no_stream' }),
    ).rejects.toThrow(SubjectErasedError)
    expect(await store.readStream('session-late')).toEqual([])
    expect((await store.readStream('user-u1'))[0]?.metadata.erased).toBe(true)
  })

  it('a sealed value moved into another event does not open there', async () => {
    await signUp('u1', 'grace@example.com', 'Grace Hopper')
    await sql`
      update tessera_events set data = jsonb_set(data, '{userAgent}', (
        select data->'email' from tessera_events where type = 'user.registered'))
      where type = 'session.started'`.execute(database.db)
    // Read as another process does: the store that appended it takes the plaintext it sealed.
    const reader = withPersonalDataEncryption(createSqlEventStore(database.db), keyring)
    const [session] = await reader.readStream('session-s-u1')
    expect(JSON.stringify([session?.data, session?.metadata])).not.toContain('grace@example.com')
    // Unopenable is as good as erased: the event reads as if its key were gone.
    expect(session?.data).toMatchObject({ userAgent: null })
    expect(session?.metadata.erased).toBe(true)
  })
})
