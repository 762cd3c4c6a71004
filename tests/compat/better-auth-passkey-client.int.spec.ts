/// Compatibility: better-auth 1.7.5's client with `passkeyClient` (@better-auth/passkey 1.7.5) drives
/// a Tessera on loopback. The client's addPasskey and signIn.passkey call @simplewebauthn/browser,
/// which calls `navigator.credentials`; Node has none, so this file gives it one: a credentials
/// container backed by the software authenticator of the HTTP tests (real ES256 signatures over
/// what Tessera asked). Everything else is the client as an app runs it: the option GETs, the
/// verify POSTs with its own bodies, list, update and delete, and its error codes.

import { passkeyClient } from '@better-auth/passkey/client'
import { createAuthClient } from 'better-auth/client'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { type SoftwareAuthenticator, softwareAuthenticator } from '../../bench/software-authenticator.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { browserCookies } from './browser-cookies.js'

type Answer<T> = Promise<{
  data: T | null
  error: { status: number; code?: string; message?: string } | null
}>
type Passkey = { id: string; name: string | null; userId: string; credentialID: string; counter: number }
/** The client's passkey calls; the client plugin infers none without the server plugin's types. */
type PasskeyCalls = {
  addPasskey(options?: { name?: string }): Answer<Passkey>
  listUserPasskeys(): Answer<Passkey[]>
  updatePasskey(body: { id: string; name: string }): Answer<{ passkey: Passkey }>
  deletePasskey(body: { id: string }): Answer<{ status: boolean }>
}
type SignInCalls = { passkey(): Answer<{ session: { id: string; userId: string }; user: { id: string } }> }

const toBuffer = (base64url: string): ArrayBuffer =>
  new Uint8Array(Buffer.from(base64url, 'base64url')).buffer
const toBase64url = (buffer: ArrayBuffer | ArrayBufferView): string =>
  Buffer.from(buffer instanceof ArrayBuffer ? buffer : buffer.buffer).toString('base64url')

/** `navigator.credentials` as a browser with one platform authenticator offers it. */
const credentialsOf = (authenticator: SoftwareAuthenticator) => ({
  async create({ publicKey }: { publicKey: { challenge: ArrayBuffer } }) {
    const { response } = authenticator.create({ challenge: toBase64url(publicKey.challenge) })
    return {
      id: response.id,
      rawId: toBuffer(response.rawId),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: toBuffer(response.response.clientDataJSON),
        attestationObject: toBuffer(response.response.attestationObject),
        getTransports: () => ['internal'],
      },
      getClientExtensionResults: () => ({}),
    }
  },
  async get({ publicKey }: { publicKey: { challenge: ArrayBuffer } }) {
    const answer = authenticator.get({ challenge: toBase64url(publicKey.challenge) })
    return {
      id: answer.id,
      rawId: toBuffer(answer.rawId),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: toBuffer(answer.response.clientDataJSON),
        authenticatorData: toBuffer(answer.response.authenticatorData),
        signature: toBuffer(answer.response.signature),
        userHandle: null,
      },
      getClientExtensionResults: () => ({}),
    }
  },
})

describe('better-auth 1.7.5 passkeyClient against Tessera (pglite, loopback)', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({ listen: true })
  }, 300_000)
  afterAll(() => tessera?.cleanup())
  afterEach(() => vi.unstubAllGlobals())

  /** A browser tab of the app: its cookies, its authenticator, the client. */
  const device = (authenticator: SoftwareAuthenticator) => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {})
    vi.stubGlobal('location', { hostname: 'localhost' })
    vi.stubGlobal('navigator', { credentials: credentialsOf(authenticator) })
    const { jar, fetchOptions } = browserCookies(tessera)
    const client = createAuthClient({ baseURL: tessera.baseUrl, plugins: [passkeyClient()], fetchOptions })
    const calls = client as unknown as { passkey: PasskeyCalls; signIn: SignInCalls }
    return { jar, client, passkey: calls.passkey, signIn: calls.signIn }
  }
  const laptopAuthenticator = () =>
    softwareAuthenticator({ origin: tessera.ctx.config.baseOrigin, rpId: 'localhost' })

  it('adds a passkey, lists, renames and removes it through the client', async () => {
    const laptop = device(laptopAuthenticator())
    const signUp = await laptop.client.signUp.email({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'a good password',
    })
    expect(signUp.error).toBeNull()

    const added = await laptop.passkey.addPasskey({ name: 'Laptop' })
    expect(added.error).toBeNull()
    expect(added.data).toMatchObject({ name: 'Laptop', counter: 0, userId: signUp.data?.user.id })
    const id = added.data?.id as string

    const listed = await laptop.passkey.listUserPasskeys()
    expect(listed.data?.map((passkey) => passkey.name)).toEqual(['Laptop'])
    const renamed = await laptop.passkey.updatePasskey({ id, name: 'Work laptop' })
    expect(renamed.data?.passkey).toMatchObject({ id, name: 'Work laptop' })
    const removed = await laptop.passkey.deletePasskey({ id })
    expect(removed.data).toEqual({ status: true })
    expect((await laptop.passkey.listUserPasskeys()).data).toEqual([])

    const gone = await laptop.passkey.deletePasskey({ id })
    expect(gone.error).toMatchObject({ status: 404, code: 'PASSKEY_NOT_FOUND', message: 'Passkey not found' })
  })

  it('signs in with the passkey through the client, with no second step', async () => {
    const authenticator = laptopAuthenticator()
    const laptop = device(authenticator)
    await laptop.client.signUp.email({
      name: 'Grace',
      email: 'grace@example.com',
      password: 'a good password',
    })
    expect((await laptop.passkey.addPasskey()).error).toBeNull()

    // Another tab with no cookies, the same authenticator (a discoverable credential).
    const fresh = device(authenticator)
    const signedIn = await fresh.signIn.passkey()
    expect(signedIn.error).toBeNull()
    expect(signedIn.data?.user.id).toBeDefined()
    const session = await fresh.client.getSession()
    expect(session.data?.user.email).toBe('grace@example.com')
  })

  it("answers the client's error codes: a passkey the server does not know", async () => {
    const stranger = laptopAuthenticator()
    stranger.create({ challenge: 'AAAA' })
    const tab = device(stranger)
    const refused = await tab.signIn.passkey()
    expect(refused.error).toMatchObject({ status: 401, code: 'PASSKEY_NOT_FOUND' })
    // Registration options need a signed-in session, as better-auth's freshSessionMiddleware.
    const options = await tab.client.$fetch('/passkey/generate-register-options', { method: 'GET' })
    expect(options.error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' })
  })
})
