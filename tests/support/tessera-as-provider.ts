/// Helpers of the OpenID provider's tests: a provider listening on a free port (so its issuer is a
/// real URL a relying party fetches), a client registered by an operator's server key, a person
/// signed up in a cookie-jar browser, and the browser's side of an authorization.

import { expect } from 'vitest'
import { type Browser, browserFor } from './browser.js'
import { freePort } from './free-port.js'
import { startTessera, type TestTessera } from './tessera.js'

export const PASSWORD = 'correct horse battery'
export const REDIRECT_URI = 'http://127.0.0.1:9/callback'
export const SERVER_KEY = 'server-key-for-oidc-tests-0123456789'

export { freePort }

export const startProvider = async (features: object = {}) => {
  const port = await freePort()
  return startTessera({
    listen: true,
    env: { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, SERVER_KEYS: `ops=${SERVER_KEY}` },
    features: { oauthProvider: { allowDynamicClientRegistration: true, ...features } },
  })
}

export const registerClient = async (tessera: TestTessera, metadata: Record<string, unknown> = {}) => {
  const response = await tessera.api.request(
    'POST',
    '/admin/oauth2/create-client',
    {
      client_name: 'Notes',
      redirect_uris: [REDIRECT_URI],
      post_logout_redirect_uris: ['http://127.0.0.1:9/signed-out'],
      grant_types: ['authorization_code', 'refresh_token'],
      ...metadata,
    },
    { 'x-tessera-server-key': SERVER_KEY },
  )
  expect(response.status, response.body).toBe(201)
  return response.json as { client_id: string; client_secret?: string }
}

export const signedUp = async (tessera: TestTessera) => {
  const browser = browserFor(tessera)
  const email = `ada-${Math.random().toString(36).slice(2)}@example.com`
  const response = await browser.post('/sign-up/email', { name: 'Ada Lovelace', email, password: PASSWORD })
  expect(response.status).toBe(200)
  return { browser, email }
}

/** Follows the authorization in the browser: through consent if asked; the redirect back to the client. */
export const authorizeIn = async (browser: Browser, url: URL): Promise<URL> => {
  const first = await browser.open(url.toString())
  expect(first.status, first.body).toBe(302)
  let location = new URL(String(first.headers.location))
  if (location.pathname === '/oauth/consent') {
    const consent = await browser.post('/oauth2/consent', {
      accept: true,
      oauth_query: location.search.slice(1),
    })
    expect(consent.status, consent.body).toBe(200)
    location = new URL((consent.json as { url: string }).url)
  }
  return location
}
