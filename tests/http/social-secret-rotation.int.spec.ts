/// A social sign-in under way while AUTH_SECRET is rotated: the flow starts under secret A (its
/// state sealed and its cookie signed under A), Tessera stops, starts again with AUTH_SECRET=B and
/// AUTH_SECRET_PREVIOUS=A, does what `tessera rotate-secret` does (every stored key re-wrapped
/// under B), and the person's return from the real OpenID provider still signs them in. Once A is
/// no longer listed, a flow it started is simply not found.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTessera, type Tessera } from '../../app/server/tessera.js'
import { loadConfig } from '../../infra/config/config.js'
import {
  freePort,
  signInAtProvider,
  startProvider,
  type TestProvider,
  type WebBrowser,
  webBrowser,
} from '../support/oidc-provider.js'

const SECRET_A = 'secret-a-before-the-rotation-0123456789abcdef'
const SECRET_B = 'secret-b-after-the-rotation-0123456789abcdef'

describe('a social sign-in that spans an AUTH_SECRET rotation', { timeout: 300_000 }, () => {
  const cwd = mkdtempSync(join(tmpdir(), 'tessera-social-rotation-'))
  let provider: TestProvider
  let running: Tessera | null = null
  let base: string
  let port: number

  const start = async (secrets: Record<string, string>) => {
    await running?.close()
    const config = loadConfig(
      { NODE_ENV: 'test', DATA_DIR: join(cwd, 'data'), PORT: String(port), BASE_URL: base, ...secrets },
      { cwd },
    )
    running = await createTessera({ config, logger: pino({ level: 'silent' }) })
    await running.app?.listen({ host: '127.0.0.1', port })
    return running
  }
  const api = (path: string) => `${base}/api/auth${path}`
  /** Starts a flow and signs in at the provider; the URL the provider sends the browser back to. */
  const startFlow = async (browser: WebBrowser, login: string) => {
    const started = await browser.request('POST', api('/sign-in/social'), {
      json: { provider: 'acme', callbackURL: '/dashboard', errorCallbackURL: '/oops' },
    })
    expect(started.status, started.body).toBe(200)
    return signInAtProvider(browser, (JSON.parse(started.body) as { url: string }).url, login)
  }

  beforeAll(async () => {
    port = await freePort()
    base = `http://127.0.0.1:${port}`
    provider = await startProvider([`${base}/api/auth/callback/acme`])
    writeFileSync(
      join(cwd, 'tessera.config.json'),
      JSON.stringify({
        socialProviders: {
          acme: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret },
        },
      }),
    )
  })
  afterAll(async () => {
    await running?.close()
    await provider?.close()
    rmSync(cwd, { recursive: true, force: true })
  })

  it('finishes under the new secret with the old one listed, and not once it is gone', async () => {
    provider.people.set('ada', { email: 'ada@example.com', emailVerified: true, name: 'Ada' })
    provider.people.set('bea', { email: 'bea@example.com', emailVerified: true, name: 'Bea' })
    await start({ AUTH_SECRET: SECRET_A })
    const ada = webBrowser()
    const adaBack = await startFlow(ada, 'ada')
    const bea = webBrowser()
    const beaBack = await startFlow(bea, 'bea')

    const rotated = await start({ AUTH_SECRET: SECRET_B, AUTH_SECRET_PREVIOUS: SECRET_A })
    await rotated.keyring.rewrapAll()
    const landed = await ada.request('GET', adaBack)
    expect(landed.location).toBe('/dashboard')
    const session = JSON.parse((await ada.request('GET', api('/get-session'))).body) as {
      user: { email: string }
    } | null
    expect(session?.user.email).toBe('ada@example.com')

    // A retired, forgotten: what it sealed opens no more.
    await start({ AUTH_SECRET: SECRET_B })
    const refused = await bea.request('GET', beaBack)
    expect(refused.location).toBe(`${base}/api/auth/error?error=state_mismatch`)
  })
})
