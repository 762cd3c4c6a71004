/// Answers found different from better-auth's by a black-box run (issue 9): a malformed email at
/// sign-in is 400 'Invalid email', a malformed email asking for a reset is an invalid body (400),
/// and an unknown deletion token is 404 'Invalid token'.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'
const INVALID_TOKEN = { code: 'INVALID_TOKEN', message: 'Invalid token' }

describe('wire gaps (pglite)', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera()
  })
  afterAll(() => tessera.cleanup())

  it("answers sign-in with a malformed email 400 'Invalid email'", async () => {
    for (const email of ['not-an-email', '', 'a@b', 'ada@example.com.']) {
      const response = await tessera.api.request('POST', '/sign-in/email', { email, password: PASSWORD })
      expect(response.status, email).toBe(400)
      expect(response.json).toEqual({ code: 'INVALID_EMAIL', message: 'Invalid email' })
    }
  })

  it('answers a reset request for a malformed email 400 like any invalid body, on both paths', async () => {
    for (const path of ['/request-password-reset', '/forget-password'])
      for (const email of ['not-an-email', '', 'a@b']) {
        const response = await tessera.api.request('POST', path, { email })
        expect(response.status, `${path} ${email}`).toBe(400)
        expect(response.json).toMatchObject({
          code: 'VALIDATION_ERROR',
          message: expect.stringMatching(/^Invalid body parameters: \[body\.email\]/),
        })
      }
    const wellFormed = await tessera.api.request('POST', '/request-password-reset', {
      email: 'who@example.com',
    })
    expect(wellFormed.status).toBe(200)
  })

  it("answers an unknown deletion token 404 'Invalid token', posted or followed", async () => {
    const browser = browserFor(tessera)
    await browser.post('/sign-up/email', {
      name: 'Leaving',
      email: 'leaving@example.com',
      password: PASSWORD,
    })
    const posted = await browser.post('/delete-user', { token: 'x'.repeat(32) })
    expect(posted.status).toBe(404)
    expect(posted.json).toEqual(INVALID_TOKEN)
    const followed = await browser.get(`/delete-user/callback?token=${'y'.repeat(32)}`)
    expect(followed.status).toBe(404)
    expect(followed.json).toEqual(INVALID_TOKEN)
    expect((await browser.session())?.user).toBeDefined()
  })
})
