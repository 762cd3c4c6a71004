/// GET /admin/user-overview: the operator console's view of one person's sign-in accounts (the
/// password's credential account and each linked provider) and organizations with their role, for
/// callers who may get users (an admin, a server key); others get better-auth's 401 and 403.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  linkedAccountClaims,
  linkedAccountsDecider,
  linkedAccountsStream,
} from '../../domain/linked-accounts/linked-accounts.js'
import { metadataFor } from '../../domain/shared/metadata.js'
import { newId } from '../../infra/crypto/tokens.js'
import { browserFor } from '../support/browser.js'
import { expectRefusal, signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SERVER_KEY = 'backend-key-0123456789abcdef0123456789'
const KEY_HEADER = { 'x-tessera-server-key': SERVER_KEY }
const ORIGIN = { requestId: 'test', ip: null, userAgent: null }

type Overview = {
  accounts: { id: string; providerId: string; accountId: string; createdAt: string }[]
  organizations: { id: string; name: string; slug: string; role: string }[]
}

describe('admin API: a user overview (pglite)', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({ env: { SERVER_KEYS: `billing=${SERVER_KEY}` } })
  })
  afterAll(() => tessera.cleanup())

  const server = (path: string) => tessera.api.request('GET', path, undefined, KEY_HEADER)

  /** A link to a provider as the social sign-in records it, through the same decider and claims. */
  const linkProvider = (userId: string, providerId: string, providerAccountId: string) =>
    tessera.ctx.handle(
      linkedAccountsDecider,
      linkedAccountsStream(userId),
      {
        type: 'link-account',
        userId,
        accountId: newId(),
        providerId,
        providerAccountId,
        email: null,
        tokens: {
          accessToken: 'secret-access-token',
          refreshToken: null,
          idToken: null,
          accessTokenExpiresAt: null,
          refreshTokenExpiresAt: null,
          scope: 'openid,email',
        },
        now: new Date().toISOString(),
      },
      {
        metadata: metadataFor(ORIGIN, { type: 'user', userId }, new Date()),
        claims: (events) => linkedAccountClaims(events),
      },
    )

  it('shows an admin the credential and social accounts and the organizations with their roles', async () => {
    const admin = await signUp(tessera, 'opal')
    expect(
      (
        await tessera.api.request(
          'POST',
          '/admin/set-role',
          { userId: admin.userId, role: 'admin' },
          KEY_HEADER,
        )
      ).status,
    ).toBe(200)
    const ada = await signUp(tessera, 'ada')
    const bob = await signUp(tessera, 'bob')
    await linkProvider(ada.userId, 'github', 'gh-4242')
    const acme = (await ada.post('/organization/create', { name: 'Acme', slug: 'acme' })).json as {
      id: string
    }
    const beta = (await bob.post('/organization/create', { name: 'Beta', slug: 'beta' })).json as {
      id: string
    }
    const added = await tessera.api.request(
      'POST',
      '/organization/add-member',
      { userId: ada.userId, role: 'member', organizationId: beta.id },
      KEY_HEADER,
    )
    expect(added.status).toBe(200)
    // Bob's own organization with nobody else: not Ada's.
    await bob.post('/organization/create', { name: 'Gamma', slug: 'gamma' })

    const answer = await admin.get(`/admin/user-overview?userId=${ada.userId}`)
    expect(answer.status).toBe(200)
    const overview = answer.json as Overview
    expect(overview.accounts.map(({ providerId, accountId }) => ({ providerId, accountId }))).toEqual([
      { providerId: 'credential', accountId: ada.userId },
      { providerId: 'github', accountId: 'gh-4242' },
    ])
    for (const account of overview.accounts) expect(Date.parse(account.createdAt)).not.toBeNaN()
    expect(JSON.stringify(overview)).not.toContain('secret-access-token')
    expect(overview.organizations).toEqual([
      { id: acme.id, name: 'Acme', slug: 'acme', role: 'owner' },
      { id: beta.id, name: 'Beta', slug: 'beta', role: 'member' },
    ])
  })

  it('answers a server key as an admin, and a missing user as get-user does', async () => {
    const cleo = await signUp(tessera, 'cleo')
    const answer = await server(`/admin/user-overview?userId=${cleo.userId}`)
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({
      accounts: [
        {
          id: expect.any(String),
          providerId: 'credential',
          accountId: cleo.userId,
          createdAt: expect.any(String),
        },
      ],
      organizations: [],
    })
    expectRefusal(await server('/admin/user-overview?userId=nobody-here'), 404, 'USER_NOT_FOUND')
    expectRefusal(await server('/admin/get-user?id=nobody-here'), 404, 'USER_NOT_FOUND')
  })

  it('refuses a plain user with 403 and nobody with 401', async () => {
    const dan = await signUp(tessera, 'dan')
    const eve = await signUp(tessera, 'eve')
    expectRefusal(
      await dan.get(`/admin/user-overview?userId=${eve.userId}`),
      403,
      'YOU_ARE_NOT_ALLOWED_TO_GET_USER',
    )
    expectRefusal(
      await browserFor(tessera).get(`/admin/user-overview?userId=${eve.userId}`),
      401,
      'UNAUTHORIZED',
    )
  })
})
