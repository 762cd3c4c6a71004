/// A session's life over HTTP with a fake clock: get-session without a usable cookie, sliding
/// refresh after the update age (not with disableRefresh, never without remember-me), and expiry
/// (deleted, cookie cleared). Listing, revoking and signing out: session-revocation.int.spec.ts.

import { createHmac } from 'node:crypto'
import { sql } from 'kysely'
import pg from 'pg'
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest'
import { START } from '../../infra/event-store/event-store.js'
import { devicesFor, type SessionAnswer } from '../support/browser.js'
import { describeEachDatabase } from '../support/databases.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SECRET = 'lifecycle-conformance-secret-0123456789abcdef'
const COOKIE = 'better-auth.session_token'
const DONT_REMEMBER = 'better-auth.dont_remember'
const PASSWORD = 'correct horse battery'
const T0 = Date.parse('2030-01-15T10:00:00.000Z')
const HOUR = 3_600_000
const DAY = 24 * HOUR

const sign = (value: string) => createHmac('sha256', SECRET).update(value).digest('base64')
const signedCookie = (token: string) => `${COOKIE}=${encodeURIComponent(`${token}.${sign(token)}`)}`
const iso = (ms: number) => new Date(ms).toISOString()

describeEachDatabase('session lifecycle', (_fresh, kind) => {
  let tessera: TestTessera
  let now = T0
  beforeEach(async () => {
    now = T0
    tessera = await startTessera({ kind, env: { AUTH_SECRET: SECRET }, clock: () => new Date(now) })
  })
  afterEach(() => tessera.cleanup())

  const { signedUp, signedIn } = devicesFor(() => tessera, PASSWORD)

  const sessionIds = async () =>
    (await tessera.ctx.db.selectFrom('sessions').select('id').orderBy('id').execute()).map((row) => row.id)

  const eventTypes = async () => (await tessera.store.readAll(START, 1000)).map((event) => event.type)

  it('answers null to a missing, tampered, unsigned or unknown session cookie', async () => {
    const { token } = await signedUp()
    const signature = sign(token)
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`
    const stranger = 'A'.repeat(32)
    const cookies = [
      undefined,
      `${COOKIE}=${encodeURIComponent(`${token}.${flipped}`)}`,
      `${COOKIE}=${token}`,
      `${COOKIE}=${encodeURIComponent(`${token}.`)}`,
      `${COOKIE}=${encodeURIComponent(`${token}.${sign(token).slice(0, 43)}`)}`,
      `${COOKIE}=${encodeURIComponent(`${stranger}.${sign(stranger)}`)}`,
      `${COOKIE}=%E0%A4%A`,
      `${COOKIE}=`,
    ]
    for (const cookie of cookies) {
      const response = await tessera.api.request('GET', '/get-session', undefined, cookie ? { cookie } : {})
      expect(response.status, cookie).toBe(200)
      expect(response.json, cookie).toBeNull()
    }
    expect(
      (await tessera.api.request('GET', '/get-session', undefined, { cookie: signedCookie(token) })).json,
    ).toMatchObject({
      session: { token },
    })
  })

  it('extends the expiry to now + 7 days once the session is older than a day, once', async () => {
    const laptop = await signedUp()
    now = T0 + 23 * HOUR
    const early = await laptop.call('GET', '/get-session')
    expect((early.json as SessionAnswer).session.expiresAt).toBe(iso(T0 + 7 * DAY))
    expect(early.setCookie).toEqual([])

    now = T0 + DAY + 1000
    const due = await laptop.call('GET', '/get-session')
    expect((due.json as SessionAnswer).session.expiresAt).toBe(iso(now + 7 * DAY))
    expect(due.setCookie).toHaveLength(1)
    expect(due.setCookie[0]).toContain(signedCookie(laptop.token))
    expect(due.setCookie[0]).toMatch(/Max-Age=604800/)

    const again = await laptop.call('GET', '/get-session')
    expect((again.json as SessionAnswer).session.expiresAt).toBe(iso(now + 7 * DAY))
    expect(again.setCookie).toEqual([])
    expect((await eventTypes()).filter((type) => type === 'session.refreshed')).toHaveLength(1)
  })

  it('does not extend the expiry with ?disableRefresh=true', async () => {
    const laptop = await signedUp()
    now = T0 + 2 * DAY
    const response = await laptop.call('GET', '/get-session?disableRefresh=true')
    expect((response.json as SessionAnswer).session.expiresAt).toBe(iso(T0 + 7 * DAY))
    expect(response.setCookie).toEqual([])
    expect(await eventTypes()).not.toContain('session.refreshed')
    expect((await laptop.session())?.session.expiresAt).toBe(iso(now + 7 * DAY))
  })

  it('never extends a session started without remember-me, and ends it after a day', async () => {
    await signedUp()
    const kiosk = await signedIn('ada@example.com', { rememberMe: false })
    expect(kiosk.jar.get(DONT_REMEMBER)).toBeDefined()
    now = T0 + 20 * HOUR
    const response = await kiosk.call('GET', '/get-session')
    expect((response.json as SessionAnswer).session.expiresAt).toBe(iso(T0 + DAY))
    expect(response.setCookie).toEqual([])
    // Without its dont_remember cookie the session still knows it is not to be remembered.
    const bare = await tessera.api.request('GET', '/get-session', undefined, {
      cookie: signedCookie(kiosk.token),
    })
    expect((bare.json as SessionAnswer).session.expiresAt).toBe(iso(T0 + DAY))
    expect(bare.headers['set-cookie']).toBeUndefined()

    now = T0 + DAY + 1000
    expect(await kiosk.session()).toBeNull()
    expect(await eventTypes()).not.toContain('session.refreshed')
  })

  it('deletes an expired session, clears its cookie, and drops it from lists', async () => {
    const old = await signedUp()
    const oldId = (await old.session())?.session.id
    now = T0 + 7 * DAY + 1000
    const fresh = await signedIn()
    const freshId = (await fresh.session())?.session.id

    const expired = await old.call('GET', '/get-session')
    expect(expired.status).toBe(200)
    expect(expired.json).toBeNull()
    const cleared = expired.setCookie.find((line) => line.startsWith(`${COOKIE}=`))
    expect(cleared).toMatch(/Max-Age=0/)
    expect(old.jar.get(COOKIE)).toBeUndefined()

    expect(await sessionIds()).toEqual([freshId])
    expect(await sessionIds()).not.toContain(oldId)
    const listed = (await fresh.call('GET', '/list-sessions')).json as { id: string }[]
    expect(listed.map((session) => session.id)).toEqual([freshId])
    expect(await eventTypes()).toContain('session.expired')
    // The same token stays dead.
    const replay = await tessera.api.request('GET', '/get-session', undefined, {
      cookie: signedCookie(old.token),
    })
    expect(replay.json).toBeNull()
  })
})

describe('sessions across lost PostgreSQL connections', () => {
  it('keeps serving after the server ends every connection of the database', async () => {
    const tessera = await startTessera({ kind: 'postgres', env: { AUTH_SECRET: SECRET } })
    try {
      const signUp = await tessera.api.request('POST', '/sign-up/email', {
        name: 'Ada',
        email: 'ada@example.com',
        password: PASSWORD,
      })
      const { token } = signUp.json as { token: string }
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(tessera.ctx.db)
      // As a restart or failover would: pooled idle connections and the LISTEN connection all end.
      const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') })
      await admin.connect()
      try {
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [rows[0]?.name],
        )
      } finally {
        await admin.end()
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
      const session = await tessera.api.request('GET', '/get-session', undefined, {
        cookie: signedCookie(token),
      })
      expect(session.status).toBe(200)
      expect(session.json).toMatchObject({ session: { token } })
    } finally {
      await tessera.cleanup()
    }
  })
})
