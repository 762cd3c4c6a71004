/// "Last active": list-sessions' `updatedAt` moves when a session is used, recorded at most every
/// five minutes in an operational table, without an event per request.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { START } from '../../infra/event-store/event-store.js'
import { type Browser, browserFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'
const MINUTE = 60_000
const T0 = Date.parse('2030-05-01T08:00:00.000Z')

type ListedSession = { id: string; updatedAt: string; userAgent: string | null }

describe('list-sessions: last active', () => {
  let tessera: TestTessera
  let now = T0
  beforeEach(async () => {
    now = T0
    tessera = await startTessera({ clock: () => new Date(now) })
  })
  afterEach(() => tessera.cleanup())

  const at = (ms: number) => new Date(ms).toISOString()

  const enter = async (path: string, userAgent: string) => {
    const browser = browserFor(tessera, { 'user-agent': userAgent })
    const credentials = { email: 'ada@example.com', password: PASSWORD }
    const body = path === '/sign-up/email' ? { name: 'Ada', ...credentials } : credentials
    expect((await browser.post(path, body)).status).toBe(200)
    return browser
  }

  const listed = async (browser: Browser) => {
    const response = await browser.get('/list-sessions')
    expect(response.status).toBe(200)
    return response.json as ListedSession[]
  }
  const lastActiveOf = async (browser: Browser, userAgent: string) =>
    (await listed(browser)).find((s) => s.userAgent === userAgent)?.updatedAt

  const usesRecorded = () => tessera.database.db.selectFrom('tessera_session_last_use' as never).execute()
  // Session and user events only: the first get-session may create the JWT signing key.
  const eventCount = async () =>
    (await tessera.store.readAll(START, 1000)).filter((e) => /^(session|user)\./.test(e.type)).length

  it('moves when the session is used, at most every five minutes, with no event for it', async () => {
    const laptop = await enter('/sign-up/email', 'Laptop')
    const phone = await enter('/sign-in/email', 'Phone')
    expect(await lastActiveOf(laptop, 'Phone')).toBe(at(T0))
    const events = await eventCount()

    // Just signed in: a use within five minutes of the session's own change records nothing.
    now += 2 * MINUTE
    expect(await phone.session()).not.toBeNull()
    expect(await usesRecorded()).toEqual([])

    now += 4 * MINUTE
    expect(await phone.session()).not.toBeNull()
    await expect.poll(() => lastActiveOf(laptop, 'Phone')).toBe(at(T0 + 6 * MINUTE))

    // Used again a minute later: not written again yet.
    now += MINUTE
    expect(await phone.session()).not.toBeNull()
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await lastActiveOf(laptop, 'Phone')).toBe(at(T0 + 6 * MINUTE))

    // Any route that takes the session counts as a use, not only get-session.
    now += 5 * MINUTE
    expect((await phone.get('/activity')).status).toBe(200)
    await expect.poll(() => lastActiveOf(laptop, 'Phone')).toBe(at(T0 + 12 * MINUTE))

    // The laptop listed sessions all along: its own last activity moved with those requests.
    expect(await lastActiveOf(laptop, 'Laptop')).not.toBe(at(T0))
    expect(await eventCount()).toBe(events)
  })

  it('shows the session’s own change when it is later than the last recorded use', async () => {
    const laptop = await enter('/sign-up/email', 'Laptop')
    now += 10 * MINUTE
    expect(await laptop.session()).not.toBeNull()
    await expect.poll(() => lastActiveOf(laptop, 'Laptop')).toBe(at(T0 + 10 * MINUTE))
    // Past the update age (a day), get-session slides the session: its own updatedAt moves on.
    now += 25 * 60 * MINUTE
    const refreshed = await laptop.session()
    expect(refreshed?.session).toMatchObject({ updatedAt: at(now) })
    expect(await lastActiveOf(laptop, 'Laptop')).toBe(at(now))
  })
})
