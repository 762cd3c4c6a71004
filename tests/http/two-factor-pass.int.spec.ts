/// The second step that passes records the code's acceptance and starts the session in one append
/// (command-api/two-factor/pass-and-sign-in.ts); a person banned while waiting on it still gets no
/// session, and the code they used is spent all the same, as before.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sessionStream } from '../../domain/session/session.js'
import { twoFactorStream } from '../../domain/two-factor/two-factor.js'
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
})
