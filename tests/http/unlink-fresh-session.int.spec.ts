/// unlink-account needs a fresh session (better-auth's freshSessionMiddleware), answered before any
/// other rule of the route: the linked-accounts and user deciders refuse it (issue 31), the edge only
/// measures the session's age. The clock is the test's, so the session grows old without waiting.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const FRESH_AGE_SECONDS = 60

describe('unlink-account and the fresh session', () => {
  let tessera: TestTessera
  let now = new Date('2030-01-01T00:00:00.000Z')
  beforeAll(async () => {
    tessera = await startTessera({ clock: () => now, features: { session: { freshAge: FRESH_AGE_SECONDS } } })
  })
  afterAll(() => tessera.cleanup())

  it('answers the last-account rule to a fresh session, and SESSION_NOT_FRESH before it to an old one', async () => {
    const browser = browserFor(tessera)
    const signedUp = await browser.post('/sign-up/email', {
      name: 'Ada',
      email: 'ada@example.com',
      password: 'correct horse battery',
    })
    expect(signedUp.status).toBe(200)
    const userId = (signedUp.json as { user: { id: string } }).user.id
    const password = { providerId: 'credential', accountId: userId }

    const fresh = await browser.post('/unlink-account', password)
    expect(fresh.status).toBe(400)
    expect(fresh.json).toMatchObject({ code: 'FAILED_TO_UNLINK_LAST_ACCOUNT' })

    now = new Date(now.getTime() + (FRESH_AGE_SECONDS + 1) * 1000)
    const old = await browser.post('/unlink-account', password)
    expect([old.status, old.json]).toEqual([
      403,
      { code: 'SESSION_NOT_FRESH', message: 'Session is not fresh' },
    ])
    // An account the person does not have is refused for the session first too.
    const unknown = await browser.post('/unlink-account', { accountId: 'no-such-account' })
    expect([unknown.status, unknown.json]).toEqual([
      403,
      { code: 'SESSION_NOT_FRESH', message: 'Session is not fresh' },
    ])
  })
})
