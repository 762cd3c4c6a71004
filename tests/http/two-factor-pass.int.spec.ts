/// The second step that passes records the code's acceptance and starts the session in one append
/// (command-api/two-factor/pass-and-sign-in.ts), decided on the stream read once and the person's
/// standing read beside it; a person banned while waiting on it still gets no session, and the code
/// they used is spent all the same, as before; one whose ban ran out meanwhile gets in; and of two
/// sign-ins racing with one code, one passes.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sessionStream } from '../../domain/session/session.js'
import { twoFactorStream } from '../../domain/two-factor/two-factor.js'
import { userStream } from '../../domain/user/user.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { codeAt, enrolled, halfSignedIn } from '../support/two-factor.js'

const SERVER_KEY = 'backend-key-0123456789abcdef0123456789'

let tessera: TestTessera
let now = new Date('2030-01-01T00:00:00.000Z')

beforeEach(async () => {
  now = new Date('2030-01-01T00:00:00.000Z')
  tessera = await startTessera({ clock: () => now, env: { SERVER_KEYS: `ops=${SERVER_KEY}` } })
}, 240_000)
afterEach(() => tessera.cleanup())

const userIdOf = async (ada: Awaited<ReturnType<typeof enrolled>>) =>
  String(((await ada.browser.get('/get-session')).json as { user: { id: string } }).user.id)

describe('a passing second step', () => {
  it('appends the acceptance and the new session in one transaction', async () => {
    const ada = await enrolled(tessera, 'ada@example.com', now)
    const userId = await userIdOf(ada)
    now = new Date(now.getTime() + 60_000)
    const { device } = await halfSignedIn(tessera, ada.email)
    const passed = await device.post('/two-factor/verify-totp', { code: codeAt(ada.totpURI, now) })
    expect(passed.status, JSON.stringify(passed.json)).toBe(200)
    const session = await device.get('/get-session')
    const sessionId = String((session.json as { session: { id: string } }).session.id)
    const accepted = (await tessera.store.readStream(twoFactorStream(userId))).find(
      (event) => event.type === 'two-factor.challenge-passed',
    )
    const started = (await tessera.store.readStream(sessionStream(sessionId)))[0]
    expect(accepted?.position.tx).toBeDefined()
    expect(started?.position.tx).toBe(accepted?.position.tx)
  })

  it('gives a person banned while waiting no session, and spends the code', async () => {
    const ada = await enrolled(tessera, 'ada@example.com', now)
    const userId = await userIdOf(ada)
    now = new Date(now.getTime() + 60_000)
    const { device } = await halfSignedIn(tessera, ada.email)
    const banned = await tessera.api.request(
      'POST',
      '/admin/ban-user',
      { userId },
      { 'x-tessera-server-key': SERVER_KEY },
    )
    expect(banned.status).toBe(200)
    const answer = await device.post('/two-factor/verify-totp', { code: codeAt(ada.totpURI, now) })
    expect(answer.status).toBe(403)
    expect(answer.json).toMatchObject({ code: 'BANNED_USER' })
    expect((await device.get('/get-session')).json).toBeNull()
    const events = await tessera.store.readStream(twoFactorStream(userId))
    expect(events.filter((event) => event.type === 'two-factor.code-accepted')).toHaveLength(2)
  })

  it('lets a person whose ban ran out while waiting in, and records that the ban lifted itself', async () => {
    const ada = await enrolled(tessera, 'ada@example.com', now)
    const userId = await userIdOf(ada)
    now = new Date(now.getTime() + 60_000)
    const { device } = await halfSignedIn(tessera, ada.email)
    const banned = await tessera.api.request(
      'POST',
      '/admin/ban-user',
      { userId, banExpiresIn: 60 },
      { 'x-tessera-server-key': SERVER_KEY },
    )
    expect(banned.status).toBe(200)
    now = new Date(now.getTime() + 120_000)
    const answer = await device.post('/two-factor/verify-totp', { code: codeAt(ada.totpURI, now) })
    expect(answer.status, JSON.stringify(answer.json)).toBe(200)
    expect(answer.json).toMatchObject({ user: { id: userId, email: ada.email } })
    expect((await device.get('/get-session')).json).toMatchObject({ user: { id: userId } })
    const lifted = (await tessera.store.readStream(userStream(userId))).filter(
      (event) => event.type === 'user.unbanned',
    )
    expect(lifted.map((event) => event.data)).toEqual([{ userId, expired: true }])
  })

  it('lets one of two sign-ins racing with the same code through and refuses the other', async () => {
    const ada = await enrolled(tessera, 'ada@example.com', now)
    const userId = await userIdOf(ada)
    now = new Date(now.getTime() + 60_000)
    const first = await halfSignedIn(tessera, ada.email)
    const second = await halfSignedIn(tessera, ada.email)
    const code = codeAt(ada.totpURI, now)
    const answers = await Promise.all([
      first.device.post('/two-factor/verify-totp', { code }),
      second.device.post('/two-factor/verify-totp', { code }),
    ])
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401])
    expect(answers.find((answer) => answer.status === 401)?.json).toMatchObject({ code: 'INVALID_CODE' })
    const events = await tessera.store.readStream(twoFactorStream(userId))
    expect(events.filter((event) => event.type === 'two-factor.challenge-passed')).toHaveLength(1)
    expect(events.filter((event) => event.type === 'two-factor.code-refused')).toHaveLength(1)
  })

  it('passes one of two answers racing on one sign-in, and starts one session', async () => {
    const ada = await enrolled(tessera, 'ada@example.com', now)
    const userId = await userIdOf(ada)
    now = new Date(now.getTime() + 60_000)
    const { device } = await halfSignedIn(tessera, ada.email)
    const code = codeAt(ada.totpURI, now)
    const answers = await Promise.all([
      device.post('/two-factor/verify-totp', { code }),
      device.post('/two-factor/verify-totp', { code }),
    ])
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    const refused = answers.find((answer) => answer.status !== 200)
    expect(refused?.status, JSON.stringify(refused?.json)).toBe(401)
    const events = await tessera.store.readStream(twoFactorStream(userId))
    expect(events.filter((event) => event.type === 'two-factor.challenge-passed')).toHaveLength(1)
  })
})
