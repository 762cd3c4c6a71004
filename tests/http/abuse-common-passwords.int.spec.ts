/// The most common passwords are refused wherever a password is chosen (sign-up, reset, change and
/// the server-side set), with better-auth's `haveIBeenPwned` answer; a config switch turns it off.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setPassword } from '../../command-api/account/credentials.js'
import { isDomainError } from '../../domain/shared/errors.js'
import { deriveToken } from '../../infra/crypto/derived-tokens.js'
import { START } from '../../infra/event-store/event-store.js'
import { browserFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const COMPROMISED = {
  code: 'PASSWORD_COMPROMISED',
  message: 'The password you entered has been compromised. Please choose a different password.',
}
const GOOD = 'correct horse battery'

describe('common passwords, refused by default', { timeout: 240_000 }, () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera()
  })
  afterAll(async () => {
    await tessera.cleanup()
  })

  it('refuses them at sign-up, whatever their case, and creates nobody', async () => {
    for (const password of ['password123', 'Password123', 'QWERTYUIOP', 'iloveyou']) {
      const answer = await tessera.api.request('POST', '/sign-up/email', {
        name: 'Ada',
        email: 'ada@example.com',
        password,
      })
      expect(answer.status).toBe(400)
      expect(answer.json).toEqual(COMPROMISED)
    }
    const events = await tessera.ctx.store.readAll(START, 100)
    expect(events.filter((event) => event.type === 'user.registered')).toEqual([])
    // A length problem is reported as such first, as better-auth checks length before the list.
    const short = await tessera.api.request('POST', '/sign-up/email', {
      name: 'Ada',
      email: 'ada@example.com',
      password: '123456',
    })
    expect((short.json as { code: string }).code).toBe('PASSWORD_TOO_SHORT')
  })

  it('refuses them on change, on reset and on the server-side set', async () => {
    const ada = browserFor(tessera)
    const signUp = await ada.post('/sign-up/email', {
      name: 'Ada',
      email: 'ada2@example.com',
      password: GOOD,
    })
    expect(signUp.status).toBe(200)
    const userId = (signUp.json as { user: { id: string } }).user.id

    const change = await ada.post('/change-password', { currentPassword: GOOD, newPassword: 'football1' })
    expect(change.status).toBe(400)
    expect(change.json).toEqual(COMPROMISED)

    expect((await ada.post('/request-password-reset', { email: 'ada2@example.com' })).status).toBe(200)
    const requested = async () =>
      (await tessera.ctx.store.readAll(START, 1000)).find(
        (event) => event.type === 'user.password-reset-requested',
      )
    await expect.poll(requested).toBeDefined()
    const requestId = String(Reflect.get((await requested())?.data ?? {}, 'requestId'))
    const token = deriveToken(tessera.ctx.config.secret, 'password-reset', requestId)
    const reset = await ada.post('/reset-password', { token, newPassword: 'baseball1' })
    expect(reset.status).toBe(400)
    expect(reset.json).toEqual(COMPROMISED)
    // The token was not used up by the refusal: a good password still goes through.
    expect(
      (await ada.post('/reset-password', { token, newPassword: 'a much better passphrase' })).status,
    ).toBe(200)

    const origin = { requestId: 'test', ip: null, userAgent: null }
    const set = await setPassword(tessera.ctx, origin, { userId, newPassword: 'sunshine1' }).catch((e) => e)
    expect(isDomainError(set) && set.code).toBe('PASSWORD_COMPROMISED')
  })
})

describe('common passwords, allowed by configuration', { timeout: 240_000 }, () => {
  it('accepts them with emailAndPassword.rejectCommonPasswords false', async () => {
    const tessera = await startTessera({ features: { emailAndPassword: { rejectCommonPasswords: false } } })
    try {
      const answer = await tessera.api.request('POST', '/sign-up/email', {
        name: 'Ada',
        email: 'ada@example.com',
        password: 'password123',
      })
      expect(answer.status).toBe(200)
    } finally {
      await tessera.cleanup()
    }
  })
})
