import { afterEach, beforeEach, expect, it } from 'vitest'
import { START } from '../../infra/event-store/event-store.js'
import { readModelProjections } from '../../projections/all.js'
import { replay } from '../../projections/runner/projector.js'
import { cookieJar } from '../support/cookies.js'
import { describeEachDatabase } from '../support/databases.js'
import { snapshotTables } from '../support/table-snapshot.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'

type Item = {
  id: string
  type: string
  at: string
  ip: string | null
  userAgent: string | null
  details: Record<string, unknown>
}
type Page = { items: Item[]; nextCursor: string | null }

const keysOf = (value: unknown): string[] =>
  value !== null && typeof value === 'object'
    ? Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)])
    : []

/** Every string the log keeps under a secret's name (hashes, request ids), however deep. */
const secretsIn = (value: unknown): string[] =>
  value !== null && typeof value === 'object'
    ? Object.entries(value).flatMap(([key, inner]) =>
        typeof inner === 'string' && /hash|token|requestId/i.test(key) ? [inner] : secretsIn(inner),
      )
    : []

describeEachDatabase('GET /activity', (_fresh, kind) => {
  let tessera: TestTessera
  beforeEach(async () => {
    tessera = await startTessera({ kind, features: { user: { deleteUser: { immediate: true } } } })
  })
  afterEach(() => tessera.cleanup())

  /** A device: its own cookies and user agent. */
  const device = (userAgent: string) => {
    const jar = cookieJar()
    const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const cookie = jar.header()
      const headers = { 'user-agent': userAgent, ...(cookie ? { cookie } : {}) }
      const response = await tessera.api.request(method, path, body, headers)
      jar.store(response.headers['set-cookie'])
      return response
    }
    const page = async (query = '') => {
      const response = await call('GET', `/activity${query}`)
      expect(response.status).toBe(200)
      return response.json as Page
    }
    /** Every item, following the cursor `limit` at a time. */
    const walk = async (limit: number, between: () => Promise<void> = async () => {}) => {
      const seen: Item[] = []
      let cursor: string | null = null
      do {
        const current: Page = await page(`?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
        expect(current.items.length).toBeLessThanOrEqual(limit)
        seen.push(...current.items)
        cursor = current.nextCursor
        await between()
      } while (cursor)
      return seen
    }
    return { call, page, walk }
  }

  const signUp = async (email: string, userAgent: string) => {
    const laptop = device(userAgent)
    const response = await laptop.call('POST', '/sign-up/email', {
      name: 'Test Person',
      email,
      password: PASSWORD,
    })
    expect(response.status).toBe(200)
    const { token, user } = response.json as { token: string; user: { id: string } }
    return { ...laptop, token, userId: user.id }
  }

  const signIn = async (email: string, userAgent: string) => {
    const other = device(userAgent)
    const response = await other.call('POST', '/sign-in/email', { email, password: PASSWORD })
    expect(response.status).toBe(200)
    return { ...other, token: (response.json as { token: string }).token }
  }

  const sessionIdOf = async (d: ReturnType<typeof device>) =>
    ((await d.call('GET', '/get-session')).json as { session: { id: string } }).session.id

  it("shows the caller's sign-ins, revocations and sign-outs newest first, with device and address", async () => {
    const laptop = await signUp('ada@example.com', 'Laptop UA')
    const phone = await signIn('ada@example.com', 'Phone UA')
    const phoneSession = await sessionIdOf(phone)
    expect((await laptop.call('POST', '/revoke-session', { token: phoneSession })).status).toBe(200)
    const tablet = await signIn('ada@example.com', 'Tablet UA')
    const tabletSession = await sessionIdOf(tablet)
    expect((await tablet.call('POST', '/sign-out')).status).toBe(200)

    const { items, nextCursor } = await laptop.page()
    expect(nextCursor).toBeNull()
    expect(items.map((item) => item.type)).toEqual([
      'user.signed-out',
      'session.started',
      'session.revoked',
      'session.started',
      'session.started',
      'user.registered',
    ])
    const [signedOut, tabletIn, revoked, phoneIn, laptopIn, registered] = items
    expect(signedOut).toMatchObject({ ip: '127.0.0.1', userAgent: 'Tablet UA' })
    // The device signed out is named in the details too (here the same one).
    expect(signedOut?.details).toEqual({
      reason: 'sign-out',
      sessionId: tabletSession,
      userAgent: 'Tablet UA',
      ip: '127.0.0.1',
    })
    expect(tabletIn).toMatchObject({
      ip: '127.0.0.1',
      userAgent: 'Tablet UA',
      details: { sessionId: tabletSession },
    })
    expect(revoked).toMatchObject({
      userAgent: 'Laptop UA',
      details: { reason: 'revoked', sessionId: phoneSession, userAgent: 'Phone UA' },
    })
    expect(phoneIn).toMatchObject({ userAgent: 'Phone UA', details: { sessionId: phoneSession } })
    expect(laptopIn).toMatchObject({ userAgent: 'Laptop UA' })
    expect(registered).toMatchObject({ userAgent: 'Laptop UA', details: { email: 'ada@example.com' } })
    const times = items.map((item) => Date.parse(item.at))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    expect((await laptop.call('GET', '/activity')).headers['cache-control']).toBe('no-store')
  })

  it('never shows a hash, token or request id in any projected details', async () => {
    const laptop = await signUp('ada@example.com', 'Laptop UA')
    const phone = await signIn('ada@example.com', 'Phone UA')
    await laptop.call('POST', '/update-user', { name: 'Ada Lovelace' })
    const changed = await laptop.call('POST', '/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'an even better passphrase',
      revokeOtherSessions: true,
    })
    expect(changed.status).toBe(200)
    await laptop.call('POST', '/request-password-reset', { email: 'ada@example.com' })
    // The request is recorded after the answer (so its timing tells nothing): wait for it.
    const activityRows = () => tessera.database.db.selectFrom('activity').selectAll().execute()
    await expect
      .poll(async () => (await activityRows()).map((row) => row.type), { timeout: 10_000 })
      .toContain('user.password-reset-requested')
    const rows = await activityRows()
    // Anyone who knows the address can ask for a reset: where the asker was is not shown.
    expect(rows.find((row) => row.type === 'user.password-reset-requested')).toMatchObject({
      ip: null,
      user_agent: null,
    })
    const types = new Set(rows.map((row) => row.type))
    for (const type of [
      'user.profile-updated',
      'user.password-changed',
      'session.revoked',
      'session.started',
    ])
      expect(types).toContain(type)
    for (const row of rows)
      for (const key of keysOf(row.details)) expect(key).not.toMatch(/hash|token|requestId/i)
    expect(rows.find((row) => row.type === 'user.profile-updated')?.details).toEqual({ fields: ['name'] })

    // No secret the log holds appears anywhere in the answer, and neither do raw session tokens.
    const events = await tessera.store.readAll(START, 1000)
    const secrets = events.flatMap((event) => secretsIn(event.data))
    expect(secrets.length).toBeGreaterThan(5)
    const body = (await laptop.call('GET', '/activity?limit=100')).body
    for (const secret of [...secrets, laptop.token, phone.token]) expect(body).not.toContain(secret)
  })

  it('walks every item exactly once, two at a time, while new events arrive between pages', async () => {
    const laptop = await signUp('ada@example.com', 'Laptop UA')
    for (const n of [1, 2, 3]) await signIn('ada@example.com', `Device ${n}`)
    const before = (await laptop.page('?limit=100')).items
    expect(before).toHaveLength(5)

    let arrivals = 0
    const walked = await laptop.walk(2, async () => {
      arrivals += 1
      await signIn('ada@example.com', `Late device ${arrivals}`)
    })
    expect(walked.map((item) => item.id)).toEqual(before.map((item) => item.id))
    expect(arrivals).toBe(3)

    const after = await laptop.walk(2)
    expect(after).toHaveLength(8)
    expect(new Set(after.map((item) => item.id)).size).toBe(8)
    expect(after.slice(3).map((item) => item.id)).toEqual(before.map((item) => item.id))
    expect(after.slice(0, 3).map((item) => item.userAgent)).toEqual([
      'Late device 3',
      'Late device 2',
      'Late device 1',
    ])
  })

  it("never shows another person's events, even with a cursor from their history", async () => {
    const ada = await signUp('ada@example.com', 'Ada UA')
    const bob = await signUp('bob@example.com', 'Bob UA')
    for (const n of [1, 2]) {
      await signIn('ada@example.com', `Ada device ${n}`)
      await signIn('bob@example.com', `Bob device ${n}`)
    }
    await bob.call('POST', '/update-user', { name: 'Bob' })

    const adas = await ada.walk(1)
    const bobs = await bob.walk(1)
    expect(adas).toHaveLength(4)
    expect(bobs).toHaveLength(5)
    // Whole words only: random ids may contain 'ada' or 'bob' by chance.
    expect(JSON.stringify(adas)).not.toMatch(/\bbob\b/i)
    expect(JSON.stringify(bobs)).not.toMatch(/\bada\b/i)

    const bobsFirst = await bob.page('?limit=1')
    const crossed = await ada.page(`?cursor=${bobsFirst.nextCursor}`)
    expect(crossed.items.length).toBeGreaterThan(0)
    expect(crossed.items.every((item) => adas.some((own) => own.id === item.id))).toBe(true)
  })

  it('answers 401 without a session and 400 for a bad cursor or limit, never 500', async () => {
    expect((await tessera.api.request('GET', '/activity')).status).toBe(401)
    const stale = { cookie: 'better-auth.session_token=not-a-session' }
    expect((await tessera.api.request('GET', '/activity', undefined, stale)).json).toMatchObject({
      code: 'UNAUTHORIZED',
    })

    const ada = await signUp('ada@example.com', 'Ada UA')
    const base64url = (text: string) => Buffer.from(text).toString('base64url')
    const badCursors = [
      'not base64!',
      '%00',
      base64url('12:'),
      base64url('-1:3'),
      base64url('99999999999999999999:1'),
      `${base64url('1:2')}=`,
      'a'.repeat(65),
      '',
    ]
    for (const cursor of badCursors) {
      const response = await ada.call('GET', `/activity?cursor=${encodeURIComponent(cursor)}`)
      expect({ cursor, status: response.status }).toEqual({ cursor, status: 400 })
      expect(response.json).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('query.cursor'),
      })
    }
    for (const limit of ['0', '101', '-1', '2.5', 'x', '']) {
      const response = await ada.call('GET', `/activity?limit=${limit}`)
      expect({ limit, status: response.status }).toEqual({ limit, status: 400 })
    }
    expect((await ada.call('GET', '/activity?limit=100')).status).toBe(200)
    expect((await ada.call('GET', '/activity?userId=someone-else')).status).toBe(400)
  })

  it('forgets a deleted user, and a replay rebuilds the same history', async () => {
    const ada = await signUp('ada@example.com', 'Ada UA')
    const bob = await signUp('bob@example.com', 'Bob UA')
    await signIn('ada@example.com', 'Ada phone')
    const deleted = await bob.call('POST', '/delete-user', { password: PASSWORD })
    expect(deleted.status).toBe(200)

    const { db } = tessera.database
    const owners = await db.selectFrom('activity').select('user_id').distinct().execute()
    expect(owners.map((row) => row.user_id)).toEqual([ada.userId])

    const before = await snapshotTables(db, ['activity'])
    await replay({ db, store: tessera.store, projections: readModelProjections })
    expect(await snapshotTables(db, ['activity'])).toEqual(before)
    expect((await ada.page()).items).toHaveLength(3)
  })
})
