/// Signing in with a passkey over HTTP (@better-auth/passkey 1.7.5's wire), with a software
/// authenticator: the sign-in itself, and each way an assertion must be refused (another origin or
/// relying party, a challenge used twice or asked for by another browser, a bad signature, a counter
/// that went backwards, which is also recorded as a possible clone).

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SoftwareAuthenticator, softwareAuthenticator } from '../../bench/software-authenticator.js'
import { passkeyStream } from '../../domain/passkey/passkey.js'
import { type Browser, browserFor, devicesFor, type SessionAnswer } from '../support/browser.js'
import {
  authenticationOptions,
  type PasskeyJson,
  registerPasskey,
  registrationOptions,
  signInWithPasskey,
} from '../support/passkeys.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

let tessera: TestTessera
beforeAll(async () => {
  tessera = await startTessera()
}, 300_000)
afterAll(() => tessera?.cleanup())

const refusal = (answer: { json: unknown }) => answer.json as { code: string; message: string }

let people = 0
/** A person with one passkey on `device`, and the browser they registered it in. */
const withPasskey = async (): Promise<{
  owner: Browser
  device: SoftwareAuthenticator
  passkey: PasskeyJson
}> => {
  people += 1
  const owner = await devicesFor(() => tessera, 'a good password').signedUp(`signin${people}@example.com`)
  const device = softwareAuthenticator({ origin: 'http://localhost:3000', rpId: 'localhost' })
  const registered = await registerPasskey(owner, device, { name: 'Laptop' })
  expect(registered.status).toBe(200)
  return { owner, device, passkey: registered.json as PasskeyJson }
}

describe('signing in with a passkey', () => {
  it('starts a session that records the passkey, with no second step', async () => {
    const { device, passkey } = await withPasskey()
    const browser = browserFor(tessera)
    const options = await authenticationOptions(browser)
    // Signed out: no credentials listed, so the browser offers the discoverable ones (autofill).
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'preferred' })
    expect(options.allowCredentials).toBeUndefined()
    const answer = await browser.post('/passkey/verify-authentication', { response: device.get(options) })
    expect(answer.status, JSON.stringify(answer.json)).toBe(200)
    const signedIn = answer.json as SessionAnswer
    expect(signedIn.user.id).toBe(passkey.userId)
    expect(answer.headers['set-auth-token']).toBeDefined()
    expect((await browser.session())?.session.id).toBe(signedIn.session.id)
    // The counter moved, and the sign-in reads as a passkey one in the owner's activity.
    expect(((await browser.get('/passkey/list-user-passkeys')).json as PasskeyJson[])[0]?.counter).toBe(1)
    const feed = (await browser.get('/activity')).json as {
      items: { type: string; details: Record<string, unknown> }[]
    }
    const started = feed.items.find((item) => item.type === 'session.started')
    expect(started?.details.amr).toEqual(['passkey'])
  })

  it("lists a signed-in caller's own passkeys in the options", async () => {
    const { owner, passkey } = await withPasskey()
    const options = await authenticationOptions(owner)
    expect(options.allowCredentials).toEqual([
      { id: passkey.credentialID, type: 'public-key', transports: ['internal'] },
    ])
  })

  it('refuses an assertion made on another origin (phishing), with better-auth code and message', async () => {
    const { device } = await withPasskey()
    const answer = await signInWithPasskey(browserFor(tessera), device, { origin: 'https://phish.example' })
    expect(answer.status).toBe(400)
    expect(refusal(answer)).toEqual({ code: 'AUTHENTICATION_FAILED', message: 'Authentication failed' })
  })

  it('refuses an assertion for another relying party id', async () => {
    const { device } = await withPasskey()
    const answer = await signInWithPasskey(browserFor(tessera), device, { rpId: 'phish.example' })
    expect(answer.status).toBe(400)
    expect(refusal(answer).code).toBe('AUTHENTICATION_FAILED')
  })

  it('refuses a signature that does not verify', async () => {
    const { device } = await withPasskey()
    const browser = browserFor(tessera)
    const answer = await signInWithPasskey(browser, device, { badSignature: true })
    expect(answer.status).toBe(401)
    expect(refusal(answer).code).toBe('AUTHENTICATION_FAILED')
    expect(await browser.session()).toBeNull()
  })

  it('takes a challenge once: a replayed assertion finds none', async () => {
    const { device } = await withPasskey()
    const browser = browserFor(tessera)
    const options = await authenticationOptions(browser)
    const response = device.get(options)
    const cookie = browser.jar.header()
    expect((await browser.post('/passkey/verify-authentication', { response })).status).toBe(200)
    const replay = await tessera.api.request(
      'POST',
      '/passkey/verify-authentication',
      { response },
      { cookie },
    )
    expect(replay.status).toBe(400)
    expect(refusal(replay)).toEqual({ code: 'CHALLENGE_NOT_FOUND', message: 'Challenge not found' })
  })

  it('refuses a challenge another browser asked for', async () => {
    const { device } = await withPasskey()
    const victim = browserFor(tessera)
    const attacker = browserFor(tessera)
    const victimsOptions = await authenticationOptions(victim)
    await authenticationOptions(attacker)
    // The attacker relays an assertion over the victim's challenge from their own browser.
    const relayed = await attacker.post('/passkey/verify-authentication', {
      response: device.get(victimsOptions),
    })
    expect(relayed.status).toBe(400)
    expect(refusal(relayed).code).toBe('AUTHENTICATION_FAILED')
    // Without any challenge cookie at all.
    const bare = await tessera.api.request('POST', '/passkey/verify-authentication', {
      response: device.get(victimsOptions),
    })
    expect(bare.status).toBe(400)
    expect(refusal(bare).code).toBe('CHALLENGE_NOT_FOUND')
    // And the victim's own challenge still works for the victim.
    expect(
      (await victim.post('/passkey/verify-authentication', { response: device.get(victimsOptions) })).status,
    ).toBe(200)
  })

  it('does not accept a registration challenge for a sign-in', async () => {
    const { owner, device } = await withPasskey()
    const options = await registrationOptions(owner)
    const answer = await owner.post('/passkey/verify-authentication', { response: device.get(options) })
    expect(answer.status).toBe(400)
    expect(refusal(answer).code).toBe('CHALLENGE_NOT_FOUND')
  })

  it('answers 401 PASSKEY_NOT_FOUND for a credential nobody registered, or one removed', async () => {
    const stranger = softwareAuthenticator({ origin: 'http://localhost:3000', rpId: 'localhost' })
    stranger.create({ challenge: 'AAAA' })
    const unknown = await signInWithPasskey(browserFor(tessera), stranger)
    expect(unknown.status).toBe(401)
    expect(refusal(unknown)).toEqual({ code: 'PASSKEY_NOT_FOUND', message: 'Passkey not found' })
    const { owner, device, passkey } = await withPasskey()
    expect((await owner.post('/passkey/delete-passkey', { id: passkey.id })).status).toBe(200)
    expect((await signInWithPasskey(browserFor(tessera), device)).status).toBe(401)
  })
})

describe('a counter that goes backwards', () => {
  it('is refused and recorded as a possible cloned authenticator', async () => {
    const { owner, device, passkey } = await withPasskey()
    expect((await signInWithPasskey(browserFor(tessera), device)).status).toBe(200)
    expect((await signInWithPasskey(browserFor(tessera), device)).status).toBe(200)
    const clone = browserFor(tessera)
    const answer = await signInWithPasskey(clone, device, { counter: 1 })
    expect(answer.status).toBe(400)
    expect(refusal(answer).code).toBe('AUTHENTICATION_FAILED')
    expect(await clone.session()).toBeNull()
    const events = await tessera.store.readStream(passkeyStream(passkey.id))
    expect(events.at(-1)).toMatchObject({
      type: 'passkey.clone-suspected',
      data: { passkeyId: passkey.id, userId: passkey.userId, storedCounter: 2, presentedCounter: 1 },
    })
    const feed = (await owner.get('/activity')).json as { items: { type: string }[] }
    expect(feed.items.map((item) => item.type)).toContain('passkey.clone-suspected')
    // The genuine authenticator, counting on, still signs in.
    expect((await signInWithPasskey(browserFor(tessera), device)).status).toBe(200)
  })

  it('accepts an authenticator that never counts (counter 0 every time)', async () => {
    people += 1
    const owner = await devicesFor(() => tessera, 'a good password').signedUp(`synced${people}@example.com`)
    const synced = softwareAuthenticator({
      origin: 'http://localhost:3000',
      rpId: 'localhost',
      countsSignatures: false,
    })
    expect((await registerPasskey(owner, synced)).status).toBe(200)
    expect((await signInWithPasskey(browserFor(tessera), synced)).status).toBe(200)
    expect((await signInWithPasskey(browserFor(tessera), synced)).status).toBe(200)
  })
})
