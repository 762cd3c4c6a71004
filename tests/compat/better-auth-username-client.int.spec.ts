/// Compatibility: better-auth 1.7.5's client with its `usernameClient` plugin drives a Tessera on
/// loopback: sign-up with a username, sign-in by username, availability, and the plugin's errors.

import { createAuthClient } from 'better-auth/client'
import { usernameClient } from 'better-auth/client/plugins'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { browserCookies } from './browser-cookies.js'

const PASSWORD = 'correct horse battery'
const COOKIE = 'better-auth.session_token'

const device = (tessera: TestTessera) => {
  const { jar, fetchOptions } = browserCookies(tessera)
  const client = createAuthClient({
    baseURL: tessera.baseUrl,
    plugins: [usernameClient()],
    fetchOptions,
  })
  return { jar, client }
}

describe('better-auth 1.7.5 usernameClient against Tessera (pglite, loopback)', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({ listen: true })
  })
  afterAll(() => tessera.cleanup())

  it('signs up with a username, checks availability and signs in by username', async () => {
    const laptop = device(tessera)
    const before = await laptop.client.isUsernameAvailable({ username: 'Ada_Lovelace' })
    expect(before.error).toBeNull()
    expect(before.data).toEqual({ available: true })

    const signUp = await laptop.client.signUp.email({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: PASSWORD,
      username: 'Ada_Lovelace',
    })
    expect(signUp.error).toBeNull()
    expect(signUp.data?.user).toMatchObject({ username: 'ada_lovelace', displayUsername: 'Ada_Lovelace' })

    const after = await laptop.client.isUsernameAvailable({ username: 'ADA_LOVELACE' })
    expect(after.data).toEqual({ available: false })

    const phone = device(tessera)
    const signIn = await phone.client.signIn.username({ username: 'ada_lovelace', password: PASSWORD })
    expect(signIn.error).toBeNull()
    expect(signIn.data).toMatchObject({
      redirect: false,
      token: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      user: { email: 'ada@example.com', username: 'ada_lovelace' },
    })
    expect(phone.jar.get(COOKIE)).toBeDefined()
    const session = await phone.client.getSession()
    expect(session.data?.user).toMatchObject({ username: 'ada_lovelace', displayUsername: 'Ada_Lovelace' })

    const updated = await phone.client.updateUser({ username: 'Countess', displayUsername: 'The Countess' })
    expect(updated.error).toBeNull()
    expect((await laptop.client.isUsernameAvailable({ username: 'ada_lovelace' })).data).toEqual({
      available: true,
    })
  })

  it("surfaces the plugin's error codes to the client", async () => {
    const client = device(tessera).client
    const wrong = await client.signIn.username({ username: 'nobody_here', password: PASSWORD })
    expect(wrong.error).toMatchObject({ status: 401, code: 'INVALID_USERNAME_OR_PASSWORD' })
    const short = await client.signIn.username({ username: 'ab', password: PASSWORD })
    expect(short.error).toMatchObject({ status: 422, code: 'USERNAME_TOO_SHORT' })
    await client.signUp.email({
      name: 'Grace',
      email: 'grace@example.com',
      password: PASSWORD,
      username: 'grace',
    })
    const taken = await device(tessera).client.signUp.email({
      name: 'Other Grace',
      email: 'other-grace@example.com',
      password: PASSWORD,
      username: 'Grace',
    })
    expect(taken.error).toMatchObject({ status: 400, code: 'USERNAME_IS_ALREADY_TAKEN' })
  })
})
