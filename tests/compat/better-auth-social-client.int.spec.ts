/// Compatibility: better-auth 1.7.5's own client drives social sign-in on a Tessera on loopback,
/// against a real OpenID provider (oidc-provider): `signIn.social` for the authorization URL, the
/// provider's pages walked by a fetch browser, the callback with the client's cookies, then
/// `listAccounts`, `linkSocial`, `unlinkAccount` (a provider's account or the password's) and
/// `getAccessToken` as the client sends them.

import { createAuthClient } from 'better-auth/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  freePort,
  signInAtProvider,
  startProvider,
  type TestProvider,
  webBrowser,
} from '../support/oidc-provider.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { browserCookies } from './browser-cookies.js'

const PASSWORD = 'correct horse battery'

describe('better-auth 1.7.5 client: social sign-in against Tessera (pglite, loopback)', () => {
  let provider: TestProvider
  let tessera: TestTessera

  beforeAll(async () => {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    provider = await startProvider([`${base}/api/auth/callback/acme`])
    tessera = await startTessera({
      listen: true,
      env: { PORT: String(port), BASE_URL: base },
      features: {
        socialProviders: {
          acme: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret },
        },
      },
    })
  })
  afterAll(async () => {
    await tessera?.cleanup()
    await provider?.close()
  })

  const device = () => {
    const { jar, fetchOptions } = browserCookies(tessera)
    const client = createAuthClient({ baseURL: tessera.baseUrl, fetchOptions })
    /** The provider's redirect back, opened with this device's cookies (as its browser would). */
    const returnFrom = async (authorizationUrl: string, login: string) => {
      const back = await signInAtProvider(webBrowser(), authorizationUrl, login)
      const cookie = jar.header()
      const response = await fetch(back, { redirect: 'manual', headers: cookie ? { cookie } : {} })
      jar.store(response.headers.getSetCookie())
      return response.headers.get('location')
    }
    return { jar, client, returnFrom }
  }

  it('signs up with signIn.social, lists the account, and refuses to unlink the last one', async () => {
    provider.people.set('ada', { email: 'ada@example.com', emailVerified: true, name: 'Ada' })
    const laptop = device()
    const started = await laptop.client.signIn.social({
      provider: 'acme' as 'github',
      callbackURL: '/dashboard',
      newUserCallbackURL: '/welcome',
    })
    expect(started.error).toBeNull()
    expect(started.data).toMatchObject({ redirect: true, url: expect.stringContaining(provider.issuer) })
    const url = (started.data as { url: string }).url
    expect(await laptop.returnFrom(url, 'ada')).toBe('/welcome')

    const session = await laptop.client.getSession()
    expect(session.data?.user).toMatchObject({ email: 'ada@example.com', emailVerified: true })
    const listed = await laptop.client.listAccounts()
    expect(listed.error).toBeNull()
    expect(listed.data).toEqual([
      expect.objectContaining({ providerId: 'acme', accountId: 'ada', userId: session.data?.user.id }),
    ])
    const accountId = listed.data?.[0]?.id ?? ''

    const token = await laptop.client.getAccessToken({ accountId } as never)
    expect(token.error).toBeNull()
    expect(token.data).toMatchObject({ accessToken: expect.any(String) })

    const last = await laptop.client.unlinkAccount({ accountId })
    expect(last.error).toMatchObject({ status: 400, code: 'FAILED_TO_UNLINK_LAST_ACCOUNT' })
  })

  it('links with linkSocial to a password user and unlinks with unlinkAccount', async () => {
    provider.people.set('bob-acme', { email: 'bob@example.com', emailVerified: true, name: 'Bob' })
    const laptop = device()
    const signUp = await laptop.client.signUp.email({
      name: 'Bob',
      email: 'bob@example.com',
      password: PASSWORD,
    })
    expect(signUp.error).toBeNull()
    const link = await laptop.client.linkSocial({ provider: 'acme' as 'github', callbackURL: '/settings' })
    expect(link.error).toBeNull()
    expect(await laptop.returnFrom((link.data as { url: string }).url, 'bob-acme')).toBe('/settings')

    const listed = await laptop.client.listAccounts()
    expect(listed.data?.map((account) => account.providerId).sort()).toEqual(['acme', 'credential'])
    const acme = listed.data?.find((account) => account.providerId === 'acme')
    const unlinked = await laptop.client.unlinkAccount({ accountId: acme?.id ?? '' })
    expect(unlinked.error).toBeNull()
    expect(unlinked.data).toEqual({ status: true })
    expect((await laptop.client.listAccounts()).data?.map((account) => account.providerId)).toEqual([
      'credential',
    ])
  })

  it('unlinks the password (the credential account) with unlinkAccount, the provider left as the way in', async () => {
    provider.people.set('cy-acme', { email: 'cy@example.com', emailVerified: true, name: 'Cy' })
    const laptop = device()
    await laptop.client.signUp.email({ name: 'Cy', email: 'cy@example.com', password: PASSWORD })
    const link = await laptop.client.linkSocial({ provider: 'acme' as 'github', callbackURL: '/settings' })
    expect(await laptop.returnFrom((link.data as { url: string }).url, 'cy-acme')).toBe('/settings')
    const listed = (await laptop.client.listAccounts()).data ?? []
    const credential = listed.find((account) => account.providerId === 'credential')
    const unlinked = await laptop.client.unlinkAccount({ accountId: credential?.id ?? '' })
    expect(unlinked.error).toBeNull()
    const left = (await laptop.client.listAccounts()).data ?? []
    expect(left.map((account) => account.providerId)).toEqual(['acme'])
    const byPassword = await device().client.signIn.email({ email: 'cy@example.com', password: PASSWORD })
    expect(byPassword.error).toMatchObject({ status: 401, code: 'INVALID_EMAIL_OR_PASSWORD' })
    const last = await laptop.client.unlinkAccount({ accountId: left[0]?.id ?? '' })
    expect(last.error).toMatchObject({ status: 400, code: 'FAILED_TO_UNLINK_LAST_ACCOUNT' })
  })
})
