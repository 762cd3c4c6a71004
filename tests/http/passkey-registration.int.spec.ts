/// Adding, listing, renaming and removing passkeys over HTTP (@better-auth/passkey 1.7.5's wire),
/// with a software authenticator (bench/software-authenticator.ts) in place of a device.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { softwareAuthenticator } from '../../bench/software-authenticator.js'
import { browserFor, devicesFor } from '../support/browser.js'
import { type PasskeyJson, registerPasskey, registrationOptions } from '../support/passkeys.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

let tessera: TestTessera
beforeAll(async () => {
  tessera = await startTessera()
}, 300_000)
afterAll(() => tessera?.cleanup())

const ORIGIN = 'http://localhost:3000'
const authenticator = (bend: { origin?: string; rpId?: string } = {}) =>
  softwareAuthenticator({ origin: bend.origin ?? ORIGIN, rpId: bend.rpId ?? 'localhost' })

let people = 0
const signedUp = async () => {
  people += 1
  return devicesFor(() => tessera, 'a good password').signedUp(`passkey${people}@example.com`)
}
const refusal = (answer: { json: unknown }) => answer.json as { code: string; message: string }

describe('adding a passkey', () => {
  it('hands out options with BASE_URL as relying party, attestation none and ES256, RS256, EdDSA', async () => {
    const ada = await signedUp()
    const answer = await ada.get('/passkey/generate-register-options?authenticatorAttachment=platform')
    expect(answer.status).toBe(200)
    const options = answer.json as Record<string, unknown>
    expect(options).toMatchObject({
      rp: { id: 'localhost', name: 'Tessera' },
      user: { name: 'passkey1@example.com', displayName: 'passkey1@example.com' },
      attestation: 'none',
      authenticatorSelection: {
        residentKey: 'preferred',
        userVerification: 'preferred',
        authenticatorAttachment: 'platform',
      },
    })
    expect((options.pubKeyCredParams as { alg: number }[]).map((p) => p.alg)).toEqual([-8, -7, -257])
    // The challenge is bound to this browser by a signed, HttpOnly cookie of five minutes.
    const cookie = answer.setCookie.find((line) => line.startsWith('better-auth.better-auth-passkey='))
    expect(cookie).toMatch(/Max-Age=300/)
    expect(cookie).toMatch(/HttpOnly/)
  })

  it('records the passkey and answers it as better-auth does', async () => {
    const ada = await signedUp()
    const answer = await registerPasskey(ada, authenticator(), { name: ' Laptop ' })
    expect(answer.status, JSON.stringify(answer.json)).toBe(200)
    const passkey = answer.json as PasskeyJson
    expect(passkey).toMatchObject({
      name: 'Laptop',
      counter: 0,
      deviceType: 'singleDevice',
      backedUp: false,
      transports: 'internal',
      aaguid: '00000000-0000-0000-0000-000000000000',
    })
    expect(passkey.publicKey).toMatch(/^[A-Za-z0-9+/]+=*$/)
    const listed = await ada.get('/passkey/list-user-passkeys')
    expect(listed.json).toEqual([passkey])
    // Excluded from the next registration, so the same authenticator is not offered twice.
    const next = await registrationOptions(ada)
    expect(next.excludeCredentials).toEqual([
      { id: passkey.credentialID, type: 'public-key', transports: ['internal'] },
    ])
  })

  it('starts a new session with the passkey when asked (`createSession`), as better-auth', async () => {
    const ada = await signedUp()
    const before = (await ada.session())?.session.id
    const options = await registrationOptions(ada)
    const { response } = authenticator().create(options)
    const answer = await ada.post('/passkey/verify-registration', {
      response,
      name: 'Phone',
      createSession: true,
    })
    expect(answer.status, JSON.stringify(answer.json)).toBe(200)
    const body = answer.json as PasskeyJson & {
      session: { id: string; userId: string }
      user: { id: string }
    }
    expect(body).toMatchObject({ name: 'Phone', userId: body.user.id })
    expect(body.session.userId).toBe(body.user.id)
    expect(body.session.id).not.toBe(before)
    expect((await ada.session())?.session.id).toBe(body.session.id)
  })

  it('needs a signed-in person', async () => {
    const stranger = browserFor(tessera)
    const answer = await stranger.get('/passkey/generate-register-options')
    expect(answer.status).toBe(401)
    expect(refusal(answer).code).toBe('UNAUTHORIZED')
  })

  it('refuses an answer made for another origin, with better-auth code and message but 400', async () => {
    const ada = await signedUp()
    const answer = await registerPasskey(ada, authenticator({ origin: 'https://phish.example' }))
    expect(answer.status).toBe(400)
    expect(refusal(answer)).toEqual({
      code: 'FAILED_TO_VERIFY_REGISTRATION',
      message: 'Failed to verify registration',
    })
    expect((await ada.get('/passkey/list-user-passkeys')).json).toEqual([])
  })

  it('refuses an answer scoped to another relying party id', async () => {
    const ada = await signedUp()
    const answer = await registerPasskey(ada, authenticator({ rpId: 'phish.example' }))
    expect(answer.status).toBe(400)
    expect(refusal(answer).code).toBe('FAILED_TO_VERIFY_REGISTRATION')
  })

  it('refuses an answer signed over another challenge', async () => {
    const ada = await signedUp()
    const answer = await registerPasskey(ada, authenticator(), {
      bend: { challenge: 'c29tZS1vdGhlci1jaGFsbGVuZ2U' },
    })
    expect(answer.status).toBe(400)
    expect(refusal(answer).code).toBe('FAILED_TO_VERIFY_REGISTRATION')
  })

  it('takes a challenge once: the same answer sent again finds none', async () => {
    const ada = await signedUp()
    const device = authenticator()
    const options = await registrationOptions(ada)
    const { response } = device.create(options)
    const cookie = ada.jar.header()
    expect((await ada.post('/passkey/verify-registration', { response })).status).toBe(200)
    const again = await tessera.api.request('POST', '/passkey/verify-registration', { response }, { cookie })
    expect(again.status).toBe(400)
    expect(refusal(again)).toEqual({ code: 'CHALLENGE_NOT_FOUND', message: 'Challenge not found' })
  })

  it("refuses a challenge this browser never asked for (another browser's session, no cookie)", async () => {
    const ada = await signedUp()
    const options = await registrationOptions(ada)
    const { response } = authenticator().create(options)
    const otherBrowser = await devicesFor(() => tessera, 'a good password').signedIn(
      `passkey${people}@example.com`,
    )
    const answer = await otherBrowser.post('/passkey/verify-registration', { response })
    expect(answer.status).toBe(400)
    expect(refusal(answer).code).toBe('CHALLENGE_NOT_FOUND')
  })

  it('registers one authenticator once, whatever account asks', async () => {
    const ada = await signedUp()
    const mallory = await signedUp()
    const device = authenticator()
    expect((await registerPasskey(ada, device)).status).toBe(200)
    const credential = device.credentials[0]
    if (!credential) throw new Error('no credential')
    const options = await registrationOptions(mallory)
    const { response } = device.create(options, {}, credential)
    const answer = await mallory.post('/passkey/verify-registration', { response })
    expect(answer.status).toBe(400)
    expect(refusal(answer)).toEqual({ code: 'PREVIOUSLY_REGISTERED', message: 'Previously registered' })
    expect((await mallory.get('/passkey/list-user-passkeys')).json).toEqual([])
  })
})

describe('renaming and removing', () => {
  it('lets the owner rename and remove a passkey; the list follows', async () => {
    const ada = await signedUp()
    const passkey = (await registerPasskey(ada, authenticator(), { name: 'Laptop' })).json as PasskeyJson
    const renamed = await ada.post('/passkey/update-passkey', { id: passkey.id, name: 'Work laptop' })
    expect(renamed.status).toBe(200)
    expect(renamed.json).toEqual({ passkey: { ...passkey, name: 'Work laptop' } })
    const removed = await ada.post('/passkey/delete-passkey', { id: passkey.id })
    expect(removed.status).toBe(200)
    expect(removed.json).toEqual({ status: true })
    expect((await ada.get('/passkey/list-user-passkeys')).json).toEqual([])
  })

  it("refuses to rename or remove someone else's passkey, as better-auth (401)", async () => {
    const ada = await signedUp()
    const mallory = await signedUp()
    const passkey = (await registerPasskey(ada, authenticator(), { name: 'Laptop' })).json as PasskeyJson
    const rename = await mallory.post('/passkey/update-passkey', { id: passkey.id, name: 'mine' })
    expect(rename.status).toBe(401)
    expect(refusal(rename)).toEqual({
      code: 'YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY',
      message: 'You are not allowed to register this passkey',
    })
    const remove = await mallory.post('/passkey/delete-passkey', { id: passkey.id })
    expect(remove.status).toBe(401)
    expect(refusal(remove).code).toBe('UNAUTHORIZED')
    expect((await mallory.get('/passkey/list-user-passkeys')).json).toEqual([])
    expect((await ada.get('/passkey/list-user-passkeys')).json).toEqual([passkey])
  })

  it('answers 404 PASSKEY_NOT_FOUND for an unknown passkey and 400 for an empty name', async () => {
    const ada = await signedUp()
    const unknown = await ada.post('/passkey/delete-passkey', { id: 'no-such-passkey' })
    expect(unknown.status).toBe(404)
    expect(refusal(unknown)).toEqual({ code: 'PASSKEY_NOT_FOUND', message: 'Passkey not found' })
    const passkey = (await registerPasskey(ada, authenticator())).json as PasskeyJson
    const empty = await ada.post('/passkey/update-passkey', { id: passkey.id, name: '   ' })
    expect(empty.status).toBe(400)
    expect(refusal(empty).code).toBe('VALIDATION_ERROR')
  })

  it("shows the passkey's life in the owner's activity, with its name", async () => {
    const ada = await signedUp()
    const passkey = (await registerPasskey(ada, authenticator(), { name: 'Phone' })).json as PasskeyJson
    await ada.post('/passkey/update-passkey', { id: passkey.id, name: 'Old phone' })
    await ada.post('/passkey/delete-passkey', { id: passkey.id })
    const feed = (await ada.get('/activity')).json as {
      items: { type: string; details: Record<string, unknown> }[]
    }
    const passkeyEntries = feed.items.filter((entry) => entry.type.startsWith('passkey.'))
    expect(passkeyEntries.map((entry) => [entry.type, entry.details.name])).toEqual([
      ['passkey.deleted', undefined],
      ['passkey.renamed', 'Old phone'],
      ['passkey.registered', 'Phone'],
    ])
  })
})
