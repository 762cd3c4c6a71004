/// Rotating AUTH_SECRET on a live system: one real database (an embedded PGlite data directory, or
/// a PostgreSQL database) kept while Tessera is stopped and started again with other secrets.
///
/// 1. Secret A, before claim keys existed: claims are HMACs under A itself (rewritten so here).
/// 2. The upgrade, still under A: the old claims keep refusing duplicates.
/// 3. AUTH_SECRET=B, AUTH_SECRET_PREVIOUS=A: everybody stays signed in (cookie and bearer), old
///    passwords work, a link signed under A still verifies, no duplicate email, erasure works,
///    and every stored key is re-wrapped under B.
/// 4. AUTH_SECRET=B alone: what A signed is simply signed out (200, null), never a 500; B's
///    cookies and every password work, and a duplicate email is still refused.
/// 5. A secret that opens nothing stored (B forgotten, not listed): the start stops and says why.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Kysely, sql } from 'kysely'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTessera, type Tessera } from '../../app/server/tessera.js'
import { subjectOf } from '../../domain/events.js'
import { EMAIL_CLAIM_SCOPE, userStream } from '../../domain/user/user.js'
import { loadConfig } from '../../infra/config/config.js'
import { signEmailToken } from '../../infra/crypto/email-token.js'
import { CLAIM_KEY_SUBJECT, hashClaimValue } from '../../infra/event-store/personal-data/hashed-claims.js'
import { browserFor } from '../support/browser.js'
import {
  type DatabaseKind,
  databaseKinds,
  freshPostgres,
  type PostgresDatabase,
} from '../support/databases.js'
import { type TestTessera, testClient } from '../support/tessera.js'

const SECRET_A = 'secret-a-before-the-rotation-0123456789abcdef'
const SECRET_B = 'secret-b-after-the-rotation-0123456789abcdef'
const PASSWORD = 'correct-horse-battery-staple'
const ADA = 'ada@example.com'
const GRACE = 'grace@example.com'
const LINUS = 'linus@example.com'

// biome-ignore lint/suspicious/noExplicitAny: the test reads the store's own tables
type AnyDb = Kysely<any>

// A first start migrates a new embedded data directory: slow on a busy machine.
const STEP_TIMEOUT_MS = 300_000

describe.each(databaseKinds)(
  'rotating AUTH_SECRET on a live system (%s)',
  { timeout: STEP_TIMEOUT_MS },
  (kind: DatabaseKind) => {
    const cwd = mkdtempSync(join(tmpdir(), 'tessera-rotation-'))
    writeFileSync(
      join(cwd, 'tessera.config.json'),
      JSON.stringify({ user: { deleteUser: { immediate: true } } }),
    )
    let postgres: PostgresDatabase | null = null
    let running: Tessera | null = null
    // The browsers talk to whichever Tessera runs now, and keep their cookies across restarts.
    const target = { api: null as unknown as TestTessera['api'] } as TestTessera

    const start = async (env: Record<string, string>): Promise<Tessera> => {
      await running?.close()
      running = null
      const database: Record<string, string> =
        kind === 'postgres' && postgres ? { DATABASE_URL: postgres.url } : { DATA_DIR: join(cwd, 'data') }
      const config = loadConfig({ NODE_ENV: 'test', ...database, ...env }, { cwd })
      running = await createTessera({ config, logger: pino({ level: 'silent' }) })
      target.api = testClient(running)
      return running
    }
    const db = () => running?.database.db as AnyDb

    beforeAll(async () => {
      if (kind === 'postgres') postgres = await freshPostgres()
    })
    afterAll(async () => {
      await running?.close()
      await postgres?.close()
      rmSync(cwd, { recursive: true, force: true })
    })

    const ada = browserFor(target)
    const grace = browserFor(target)
    const linus = browserFor(target)
    let adaBearer = ''
    let graceId = ''

    const signUp = (browser: typeof ada, email: string) =>
      browser.post('/sign-up/email', { name: email.split('@')[0], email, password: PASSWORD })
    const duplicate = () =>
      browserFor(target).post('/sign-up/email', { name: 'Impostor', email: ADA, password: PASSWORD })

    it('1. under secret A, before claim keys existed, people sign up', async () => {
      const tessera = await start({ AUTH_SECRET: SECRET_A })
      const first = await signUp(ada, ADA)
      expect(first.status).toBe(200)
      adaBearer = String(first.headers['set-auth-token'])
      const second = await signUp(grace, GRACE)
      graceId = (second.json as { user: { id: string } }).user.id
      expect((await signUp(linus, LINUS)).status).toBe(200)
      // The store as the previous version left it: claims hashed under AUTH_SECRET, no claim key.
      const claimKey = await tessera.keyring.claimKey()
      for (const email of [ADA, GRACE, LINUS])
        await sql`
        update tessera_unique_claims set value = ${hashClaimValue(SECRET_A, EMAIL_CLAIM_SCOPE, email)}
        where scope = ${EMAIL_CLAIM_SCOPE} and value = ${hashClaimValue(claimKey, EMAIL_CLAIM_SCOPE, email)}`.execute(
          db(),
        )
      await sql`delete from tessera_data_keys where subject = ${CLAIM_KEY_SUBJECT}`.execute(db())
    })

    it('2. after the upgrade, still under A, the claims made before it refuse a duplicate', async () => {
      await start({ AUTH_SECRET: SECRET_A })
      expect((await duplicate()).json).toMatchObject({ code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL' })
      expect((await ada.session())?.user.id).toBeDefined()
    })

    it('3. with AUTH_SECRET=B and AUTH_SECRET_PREVIOUS=A nobody notices, and everything moves to B', async () => {
      const tessera = await start({ AUTH_SECRET: SECRET_B, AUTH_SECRET_PREVIOUS: SECRET_A })
      // Cookies and bearer tokens signed under A: still signed in.
      expect((await ada.session())?.user).toMatchObject({ email: ADA })
      expect((await grace.session())?.user).toMatchObject({ email: GRACE })
      const bearer = await target.api.request('GET', '/get-session', undefined, {
        authorization: `Bearer ${adaBearer}`,
      })
      expect(bearer.json).toMatchObject({ user: { email: ADA } })
      // Passwords (and so the data keys wrapped under A) work; the new cookie is signed under B.
      expect((await linus.post('/sign-in/email', { email: LINUS, password: PASSWORD })).status).toBe(200)
      // A verification link mailed under A still verifies.
      const token = await signEmailToken(
        SECRET_A,
        { email: LINUS, purpose: 'verify-email' },
        { now: new Date(), expiresInSeconds: 3600 },
      )
      expect((await browserFor(target).get(`/verify-email?token=${token}`)).status).toBeLessThan(400)
      expect((await linus.session())?.user).toMatchObject({ emailVerified: true })
      // The claims did not move: still no second account for an address.
      expect((await duplicate()).json).toMatchObject({ code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL' })
      // Erasure still works: Grace's personal data is gone from the log.
      expect((await grace.post('/delete-user', {})).json).toEqual({ success: true, message: 'User deleted' })
      const events = await tessera.store.readStream(userStream(graceId))
      expect(events.length).toBeGreaterThan(1)
      // Under her key (a deletion notice has a key of its own until it is handled).
      expect(
        events.filter((event) => subjectOf(event) === graceId).every((event) => event.metadata.erased),
      ).toBe(true)
      // `tessera rotate-secret` (the same pass) leaves nothing under A.
      const report = await tessera.keyring.rewrapAll()
      expect(report.unreadable).toEqual([])
      const { rows } = await sql<{ left: string }>`
      select count(*)::text as left from tessera_data_keys
      where wrapped_key is not null and wrapped_by is distinct from (
        select wrapped_by from tessera_data_keys where subject = ${CLAIM_KEY_SUBJECT})`.execute(db())
      expect(rows[0]?.left).toBe('0')
    })

    it('4. with A gone entirely, what A signed is signed out, B and every password work, duplicates are refused', async () => {
      await start({ AUTH_SECRET: SECRET_B })
      // Ada's cookie and bearer token were signed under A: simply signed out, no error.
      const signedOut = await ada.get('/get-session')
      expect(signedOut.status).toBe(200)
      expect(signedOut.json).toBeNull()
      const bearer = await target.api.request('GET', '/get-session', undefined, {
        authorization: `Bearer ${adaBearer}`,
      })
      expect([bearer.status, bearer.json]).toEqual([200, null])
      // Linus signed in under B in step 3: still signed in.
      expect((await linus.session())?.user).toMatchObject({ email: LINUS })
      const signIn = await ada.post('/sign-in/email', { email: ADA, password: PASSWORD })
      expect(signIn.status).toBe(200)
      expect((await ada.session())?.user).toMatchObject({ email: ADA, name: 'ada' })
      const again = await duplicate()
      expect(again.status).toBe(422)
      expect(again.json).toMatchObject({ code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL' })
      // The deleted account stays erased, and its address is free.
      expect((await signUp(browserFor(target), GRACE)).status).toBe(200)
    })

    it('5. a start with neither the current nor a listed retired secret stops with the reason', async () => {
      await expect(start({ AUTH_SECRET: 'secret-c-that-wrapped-nothing-0123456789abc' })).rejects.toThrow(
        /AUTH_SECRET_PREVIOUS/,
      )
    })
  },
)
