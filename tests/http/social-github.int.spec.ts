/// The built-in GitHub provider (OAuth 2.0, no OpenID) against a small GitHub stand-in this test
/// starts on loopback: a real HTTP server speaking GitHub's authorize, access_token, /user and
/// /user/emails endpoints, with PKCE checked at the token endpoint and the client's credentials in
/// the form body as GitHub takes them. It is not GitHub; it shows that Tessera speaks GitHub's
/// protocol and maps its profile: the address and its verified flag come from /user/emails (the
/// profile's own email may be hidden), the name falls back to the login.

import { createHash, randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { metadataFor } from '../../domain/shared/metadata.js'
import { userDecider, userStream } from '../../domain/user/user.js'
import { freePort, type WebBrowser, webBrowser } from '../support/oidc-provider.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const CLIENT_ID = 'Iv1.tessera-test'
const CLIENT_SECRET = 'github-client-secret-0123456789'

type GitHubUser = {
  id: number
  login: string
  name: string | null
  email: string | null
  avatar_url: string
  emails: { email: string; primary: boolean; verified: boolean }[]
}

type Grant = { user: GitHubUser; challenge: string; redirectUri: string }

/** GitHub's four endpoints, enough for the web application flow with PKCE. */
const startGitHub = async () => {
  const grants = new Map<string, Grant>()
  const tokens = new Map<string, GitHubUser>()
  const users = new Map<string, GitHubUser>()
  const tokenRequests: URLSearchParams[] = []
  const bodyOf = async (request: IncomingMessage) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
  }
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://github.test')
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
      response.end(JSON.stringify(body))
    }
    // The person has already said yes on github.com: answer with a code at once.
    if (url.pathname === '/login/oauth/authorize') {
      const user = users.get(url.searchParams.get('login') ?? '')
      const redirectUri = url.searchParams.get('redirect_uri') ?? ''
      if (!user || url.searchParams.get('client_id') !== CLIENT_ID) return json(404, { message: 'Not Found' })
      const code = randomBytes(10).toString('hex')
      grants.set(code, { user, challenge: url.searchParams.get('code_challenge') ?? '', redirectUri })
      const back = new URL(redirectUri)
      back.searchParams.set('code', code)
      back.searchParams.set('state', url.searchParams.get('state') ?? '')
      response.writeHead(302, { location: back.toString() })
      return response.end()
    }
    if (url.pathname === '/login/oauth/access_token' && request.method === 'POST') {
      const form = await bodyOf(request)
      tokenRequests.push(form)
      const grant = grants.get(form.get('code') ?? '')
      grants.delete(form.get('code') ?? '')
      const verifier = form.get('code_verifier') ?? ''
      const challenge = createHash('sha256').update(verifier).digest('base64url')
      if (form.get('client_id') !== CLIENT_ID || form.get('client_secret') !== CLIENT_SECRET)
        return json(401, { error: 'incorrect_client_credentials' })
      if (!grant || grant.challenge !== challenge || grant.redirectUri !== form.get('redirect_uri'))
        return json(400, { error: 'bad_verification_code' })
      const accessToken = `gho_${randomBytes(16).toString('hex')}`
      tokens.set(accessToken, grant.user)
      return json(200, { access_token: accessToken, token_type: 'bearer', scope: 'read:user,user:email' })
    }
    const bearer = request.headers.authorization?.replace(/^Bearer /i, '') ?? ''
    const user = tokens.get(bearer)
    if (!user) return json(401, { message: 'Bad credentials' })
    if (url.pathname === '/user') {
      const { emails: _emails, ...profile } = user
      return json(200, profile)
    }
    if (url.pathname === '/user/emails') return json(200, user.emails)
    return json(404, { message: 'Not Found' })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    users,
    tokenRequests,
    close: async () => {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}

describe('GitHub sign-in against a GitHub stand-in over real HTTP', () => {
  let github: Awaited<ReturnType<typeof startGitHub>>
  let tessera: TestTessera
  let base: string

  beforeAll(async () => {
    github = await startGitHub()
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    tessera = await startTessera({
      listen: true,
      env: { PORT: String(port), BASE_URL: base, GITHUB_CLIENT_SECRET: CLIENT_SECRET },
      features: {
        socialProviders: {
          github: {
            clientId: CLIENT_ID,
            clientSecret: { env: 'GITHUB_CLIENT_SECRET' },
            authorizationEndpoint: `${github.origin}/login/oauth/authorize`,
            tokenEndpoint: `${github.origin}/login/oauth/access_token`,
            userInfoEndpoint: `${github.origin}/user`,
            emailsEndpoint: `${github.origin}/user/emails`,
          },
        },
      },
    })
  })
  afterAll(async () => {
    await tessera?.cleanup()
    await github?.close()
  })

  const api = (path: string) => `${base}/api/auth${path}`
  const signIn = async (browser: WebBrowser, login: string) => {
    const started = await browser.request('POST', api('/sign-in/social'), {
      json: { provider: 'github', callbackURL: '/dashboard', newUserCallbackURL: '/welcome' },
    })
    expect(started.status, started.body).toBe(200)
    const authorize = new URL((JSON.parse(started.body) as { url: string }).url)
    authorize.searchParams.set('login', login)
    const atGitHub = await browser.request('GET', authorize.toString())
    const landed = await browser.request('GET', atGitHub.next ?? '')
    return { authorize, location: landed.location ?? '' }
  }
  const session = async (browser: WebBrowser) =>
    JSON.parse((await browser.request('GET', api('/get-session'))).body) as {
      user: { id: string; email: string; emailVerified: boolean; name: string; image: string | null }
    } | null

  it("signs up with GitHub's primary address and its verified flag from /user/emails", async () => {
    github.users.set('octocat', {
      id: 583231,
      login: 'octocat',
      name: null,
      email: null,
      avatar_url: 'https://avatars.githubusercontent.com/u/583231',
      emails: [
        { email: '583231+octocat@users.noreply.github.com', primary: false, verified: true },
        { email: 'Octo@Example.com', primary: true, verified: true },
      ],
    })
    const browser = webBrowser()
    const { authorize, location } = await signIn(browser, 'octocat')
    // GitHub's own authorize URL, with PKCE and no OpenID parameters.
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${github.origin}/login/oauth/authorize`)
    expect(authorize.searchParams.get('scope')).toBe('read:user user:email')
    expect(authorize.searchParams.get('redirect_uri')).toBe(api('/callback/github'))
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorize.searchParams.has('nonce')).toBe(false)
    // Client credentials in the form, as GitHub takes them.
    expect(github.tokenRequests.at(-1)?.get('client_secret')).toBe(CLIENT_SECRET)

    expect(location).toBe('/welcome')
    expect((await session(browser))?.user).toMatchObject({
      email: 'octo@example.com',
      emailVerified: true,
      name: 'octocat',
      image: 'https://avatars.githubusercontent.com/u/583231',
    })
    const accounts = JSON.parse((await browser.request('GET', api('/list-accounts'))).body) as {
      providerId: string
      accountId: string
    }[]
    expect(accounts).toEqual([expect.objectContaining({ providerId: 'github', accountId: '583231' })])

    const again = webBrowser()
    expect((await signIn(again, 'octocat')).location).toBe('/dashboard')
    expect((await session(again))?.user.id).toBe((await session(browser))?.user.id)
  })

  it('takes an unverified primary address as unverified, so it links to nobody', async () => {
    const local = webBrowser()
    const signedUp = await local.request('POST', api('/sign-up/email'), {
      json: { name: 'Mona', email: 'mona@example.com', password: 'correct horse battery' },
    })
    const userId = (JSON.parse(signedUp.body) as { user: { id: string } }).user.id
    await tessera.ctx.handle(
      userDecider,
      userStream(userId),
      { type: 'verify-email', email: 'mona@example.com' },
      {
        metadata: metadataFor({ requestId: 't', ip: null, userAgent: null }, { type: 'system' }, new Date()),
      },
    )
    github.users.set('mona', {
      id: 77,
      login: 'mona',
      name: 'Mona Lisa',
      email: 'mona@example.com',
      avatar_url: 'https://avatars.githubusercontent.com/u/77',
      emails: [{ email: 'mona@example.com', primary: true, verified: false }],
    })
    const browser = webBrowser()
    const { location } = await signIn(browser, 'mona')
    expect(location).toBe(`${base}/api/auth/error?error=account_not_linked`)
    expect(await session(browser)).toBeNull()

    // Verified at GitHub, the same person's account links to the local one.
    github.users.set('mona', {
      ...(github.users.get('mona') as GitHubUser),
      emails: [{ email: 'mona@example.com', primary: true, verified: true }],
    })
    expect((await signIn(browser, 'mona')).location).toBe('/dashboard')
    expect((await session(browser))?.user).toMatchObject({ id: userId, name: 'Mona' })
  })
})
