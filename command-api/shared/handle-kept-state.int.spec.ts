/// `decideOnKeptState`: a command decided on the state this process kept after the stream's last
/// command, without reading the stream, over a SQL store on PGlite with the OAuth grant (its user).
/// Another process's `handle` on the same store moves the stream behind the first one's back: the
/// kept state is then stale, and the answers must be those of a fresh read all the same.

import { afterEach, describe, expect, test } from 'vitest'
import {
  type OAuthGrantCommand,
  oauthGrantDecider,
  oauthGrantStream,
} from '../../domain/oauth-provider/oauth-grant.js'
import type { EventStore, ReadStreamOptions } from '../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { freshPglite } from '../../tests/support/databases.js'
import { testMetadata } from '../../tests/support/projector-fixtures.js'
import { createHandle } from './handle.js'

const GRANT = 'g'.repeat(32)
const stream = oauthGrantStream(GRANT)
const NOW = '2026-11-27T12:00:00.000Z'
const metadata = testMetadata(NOW)

const issue: OAuthGrantCommand = {
  type: 'issue-code',
  grantId: GRANT,
  clientId: 'client-1',
  userId: 'user-1',
  sessionId: 'session-1',
  scopes: ['openid', 'offline_access'],
  redirectUri: 'https://app.example/callback',
  nonce: null,
  authTime: NOW,
  amr: ['pwd'],
  codeHash: 'code-hash',
  codeChallenge: 'challenge',
  expiresAt: '2026-11-27T12:10:00.000Z',
}

const exchange: OAuthGrantCommand = {
  type: 'exchange-code',
  clientId: 'client-1',
  codeHash: 'code-hash',
  redirectUri: 'https://app.example/callback',
  verifierChallenge: 'challenge',
  accessTokenId: 'at-0',
  refreshTokenHash: 'refresh-0',
  refreshExpiresAt: '2026-12-27T12:00:00.000Z',
  clientMayRefresh: true,
  now: NOW,
}

const refresh = (from: number, to: number): OAuthGrantCommand => ({
  type: 'refresh',
  clientId: 'client-1',
  refreshTokenHash: `refresh-${from}`,
  newRefreshTokenHash: `refresh-${to}`,
  refreshExpiresAt: '2026-12-27T12:00:00.000Z',
  accessTokenId: `at-${to}`,
  now: NOW,
})

const opened: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close()
})

/** Two processes' `handle`s on one store (each keeps its own states), and this one's stream reads. */
const setUp = async () => {
  const database = await freshPglite()
  opened.push(database)
  const store = createSqlEventStore(database.db, { singleBackend: true })
  const reads: string[] = []
  const counted: EventStore = Object.assign(Object.create(store) as EventStore, {
    readStream: (name: string, options?: ReadStreamOptions) => {
      reads.push(name)
      return store.readStream(name, options)
    },
  })
  const handleOf = (over: EventStore) =>
    createHandle({
      store: over,
      projector: { waitFor: async () => true },
      foldedStates: { stillReadable: async () => true },
    })
  const run = (handle: ReturnType<typeof handleOf>) => (command: OAuthGrantCommand) =>
    handle(oauthGrantDecider, stream, command, {
      metadata,
      decideOnKeptState: true,
      ...(command.type === 'issue-code' ? { newStream: true } : {}),
    })
  return { reads, store, here: run(handleOf(counted)), elsewhere: run(handleOf(store)) }
}

describe('handle with decideOnKeptState', () => {
  test("a grant's code, exchange and refreshes are decided without reading the stream", async () => {
    const { here, reads, store } = await setUp()
    await here(issue)
    await here(exchange)
    for (let n = 0; n < 3; n++) await here(refresh(n, n + 1))
    expect(reads).toEqual([])
    const types = (await store.readStream(stream)).map((event) => event.type)
    expect(types).toEqual([
      'oauth-grant.code-issued',
      'oauth-grant.code-exchanged',
      'oauth-grant.refreshed',
      'oauth-grant.refreshed',
      'oauth-grant.refreshed',
    ])
  })

  test('a token rotated by another process is accepted here: the stale refusal is judged again on the stream', async () => {
    const { here, elsewhere, reads } = await setUp()
    await here(issue)
    await here(exchange)
    await elsewhere(refresh(0, 1))
    const { events, state } = await here(refresh(1, 2))
    expect(events.map((event) => event.type)).toEqual(['oauth-grant.refreshed'])
    expect(state.status === 'active' && state.refreshTokenHash).toBe('refresh-2')
    expect(reads).toEqual([stream])
  })

  test('a token spent at another process, presented here where it still looks current, revokes the grant', async () => {
    const { here, elsewhere } = await setUp()
    await here(issue)
    await here(exchange)
    await elsewhere(refresh(0, 1))
    const { events, state } = await here(refresh(0, 5))
    expect(events.map((event) => event.type)).toEqual(['oauth-grant.revoked'])
    expect(state.status).toBe('revoked')
  })

  test('a grant revoked at another process refuses a refresh here, though its kept state is active', async () => {
    const { here, elsewhere } = await setUp()
    await here(issue)
    await here(exchange)
    await elsewhere({ type: 'revoke-grant', reason: 'revoked' })
    await expect(here(refresh(0, 1))).rejects.toMatchObject({ code: 'invalid_grant' })
  })

  test('a code exchanged at another process and exchanged again here revokes the grant', async () => {
    const { here, elsewhere } = await setUp()
    await here(issue)
    await elsewhere(exchange)
    const { events } = await here(exchange)
    expect(events.map((event) => event.data)).toEqual([expect.objectContaining({ reason: 'code-reused' })])
  })
})
