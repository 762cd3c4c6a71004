/// A real OpenID provider for tests (`oidc-provider`, on loopback): a confidential client for
/// Tessera (client_secret_basic, PKCE required, refresh tokens), people who sign in with any
/// password through the provider's own login and consent pages, and a "web browser" that walks
/// those pages over HTTP with fetch (a cookie jar per origin, redirects followed by hand).

import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import Provider from 'oidc-provider'
import { cookieJar } from './cookies.js'
import { freePort } from './free-port.js'

export type Person = { email: string; emailVerified: boolean; name: string }

export type TestProvider = {
  issuer: string
  clientId: string
  clientSecret: string
  /** A second client, with the same secret and redirect URIs, registered for client_secret_post. */
  postClientId: string
  /**
   * How each token request authenticated, oldest first: `basic` (an Authorization header) or `post`
   * (the secret in the body). oidc-provider takes either for a client with a secret, so a test of the
   * method reads it here.
   */
  tokenAuthentications: ('basic' | 'post')[]
  people: Map<string, Person>
  /** Lifetime of the access tokens it issues from now on (seconds). */
  setAccessTokenTtl(seconds: number): void
  /** Counts grants at the token endpoint, by grant type. */
  grants: Map<string, number>
  /** The OAuth error codes the token endpoint answered (`invalid_grant`, …), oldest first. */
  grantErrors: string[]
  close(): Promise<void>
}

export { freePort }

export const startProvider = async (redirectUris: string[]): Promise<TestProvider> => {
  const port = await freePort()
  const issuer = `http://127.0.0.1:${port}`
  const clientId = 'tessera'
  const clientSecret = 'provider-client-secret-0123456789abcdef'
  const people = new Map<string, Person>()
  const grants = new Map<string, number>()
  const grantErrors: string[] = []
  let accessTokenTtl = 3600
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: `${clientId}-post`,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    async findAccount(_ctx, sub) {
      const person = people.get(sub)
      if (!person) return undefined
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: person.email,
          email_verified: person.emailVerified,
          name: person.name,
        }),
      }
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: { AccessToken: () => accessTokenTtl },
    cookies: { keys: ['test-provider-cookie-key-0123456789'] },
  })
  const tokenAuthentications: ('basic' | 'post')[] = []
  provider.on('grant.success', (ctx: { oidc: { params?: { grant_type?: string } } }) => {
    const type = String(ctx.oidc.params?.grant_type)
    grants.set(type, (grants.get(type) ?? 0) + 1)
  })
  provider.on('grant.error', (_ctx: unknown, error: { error?: string }) => {
    grantErrors.push(String(error.error))
  })
  const serve = provider.callback()
  const server: Server = createServer((request, response) => {
    if (request.method === 'POST' && request.url?.split('?')[0] === '/token')
      tokenAuthentications.push(request.headers.authorization ? 'basic' : 'post')
    return serve(request, response)
  })
  server.listen(port, '127.0.0.1')
  await once(server, 'listening')
  return {
    issuer,
    clientId,
    clientSecret,
    postClientId: `${clientId}-post`,
    tokenAuthentications,
    people,
    grants,
    grantErrors,
    setAccessTokenTtl: (seconds) => {
      accessTokenTtl = seconds
    },
    close: async () => {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}

/** `location` as the server wrote it; `next` resolved against the request's URL. */
type Answer = { status: number; location: string | null; next: string | null; url: string; body: string }

/**
 * A browser over fetch: cookies per origin, our Origin on POSTs to Tessera (as a page of the app
 * would send), redirects reported rather than followed so tests can stop at any hop.
 */
export const webBrowser = () => {
  const jars = new Map<string, ReturnType<typeof cookieJar>>()
  const jarOf = (url: string) => {
    const { origin } = new URL(url)
    let jar = jars.get(origin)
    if (!jar) {
      jar = cookieJar()
      jars.set(origin, jar)
    }
    return jar
  }
  const request = async (
    method: 'GET' | 'POST',
    url: string,
    body?: { json: unknown } | { form: Record<string, string> },
  ): Promise<Answer> => {
    const jar = jarOf(url)
    const headers: Record<string, string> = { accept: 'text/html,application/json' }
    const cookie = jar.header()
    if (cookie) headers.cookie = cookie
    let payload: string | undefined
    if (body && 'json' in body) {
      headers['content-type'] = 'application/json'
      payload = JSON.stringify(body.json)
    } else if (body) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      payload = new URLSearchParams(body.form).toString()
    }
    if (method === 'POST') headers.origin = new URL(url).origin
    const response = await fetch(url, { method, headers, body: payload, redirect: 'manual' })
    jar.store(response.headers.getSetCookie())
    const location = response.headers.get('location')
    return {
      status: response.status,
      location,
      next: location ? new URL(location, url).toString() : null,
      url,
      body: await response.text(),
    }
  }
  /** GETs `url` and follows redirects while `keepGoing` says so; returns the last answer. */
  const follow = async (url: string, keepGoing: (next: string) => boolean = () => true): Promise<Answer> => {
    let answer = await request('GET', url)
    for (let hops = 0; answer.next && keepGoing(answer.next) && hops < 20; hops++)
      answer = await request('GET', answer.next)
    return answer
  }
  return { request, follow, jarOf }
}

export type WebBrowser = ReturnType<typeof webBrowser>

/**
 * At the provider: from the authorization URL through its login page (as `login`) and its consent
 * page, up to the redirect back to Tessera, which is returned without being followed.
 */
export const signInAtProvider = async (browser: WebBrowser, authorizationUrl: string, login: string) => {
  const issuerOrigin = new URL(authorizationUrl).origin
  const atProvider = (url: string) => new URL(url).origin === issuerOrigin
  let page = await browser.follow(authorizationUrl, atProvider)
  for (let step = 0; step < 4 && page.next === null; step++) {
    const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1]
    const prompt = /name="prompt" value="([^"]+)"/.exec(page.body)?.[1]
    if (!action || !prompt) throw new Error(`no interaction form at ${page.url}: ${page.status}`)
    const target = new URL(action, page.url).toString()
    const form: Record<string, string> = prompt === 'login' ? { prompt, login, password: 'any' } : { prompt }
    page = await browser.request('POST', target, { form })
    while (page.next && atProvider(page.next)) page = await browser.request('GET', page.next)
  }
  if (!page.next) throw new Error('the provider did not send the browser back')
  return page.next
}
