import type { FastifyReply, FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../infra/config/config.js'
import { parseFeatureOptions } from '../../infra/config/config-file.js'
import { serverActor, serverCallerOf, serverKeyGuards } from './server-key.js'

const BILLING = 'billing-key-0123456789abcdefghijklmnop'
const REPORTS = 'reports-key-0123456789abcdefghijklmnop'

const requestWith = (headers: Record<string, string>, ip = '10.0.0.1') =>
  ({ headers, ip }) as unknown as FastifyRequest
const reply = () => {
  const headers: Record<string, string> = {}
  return {
    headers,
    header: (name: string, value: string) => (headers[name] = value),
  } as unknown as FastifyReply & {
    headers: Record<string, string>
  }
}
const codeOf = async (run: () => unknown): Promise<string | null> => {
  try {
    await run()
    return null
  } catch (error) {
    return (error as { code: string }).code
  }
}

describe('SERVER_KEYS', () => {
  it('reads name=key pairs', () => {
    const config = loadConfig(
      { SERVER_KEYS: `billing=${BILLING}, reports=${REPORTS}` },
      { cwd: '/nonexistent' },
    )
    expect(config.serverKeys).toEqual([
      { name: 'billing', key: BILLING },
      { name: 'reports', key: REPORTS },
    ])
  })

  it.each([
    ['a key shorter than 32 characters', 'billing=short'],
    ['an entry without a name', `=${BILLING}`],
    ['an entry without "="', BILLING],
    ['a name used twice', `billing=${BILLING},billing=${REPORTS}`],
  ])('stops the start on %s, naming the variable and never the key', (_case, value) => {
    let thrown: unknown
    try {
      loadConfig({ SERVER_KEYS: value }, { cwd: '/nonexistent' })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({ name: 'ConfigError', key: 'SERVER_KEYS' })
    expect((thrown as Error).message).toMatch(/^SERVER_KEYS/)
    expect((thrown as Error).message).not.toContain(BILLING)
  })
})

describe('serverApi.rateLimit in tessera.config.json', () => {
  it('defaults to 200,000 calls per server key per 10 s', () => {
    expect(parseFeatureOptions({}).serverApi).toEqual({ rateLimit: { window: 10, max: 200_000 } })
  })

  it('takes its own window and maximum', () => {
    expect(parseFeatureOptions({ serverApi: { rateLimit: { window: 60, max: 500 } } }).serverApi).toEqual({
      rateLimit: { window: 60, max: 500 },
    })
  })

  it.each([
    [{ serverApi: { rateLimit: { max: 0 } } }, 'serverApi.rateLimit.max must be a positive integer'],
    [{ serverApi: { rateLimit: { window: 1.5 } } }, 'serverApi.rateLimit.window must be a positive integer'],
    [{ serverApi: { limit: 5 } }, 'serverApi.limit is not a known option'],
  ])('refuses %j, naming the option', (json, message) => {
    expect(() => parseFeatureOptions(json)).toThrow(message)
  })
})

describe('the server key guard', () => {
  const clock = () => new Date('2026-11-25T10:00:00Z')
  const guards = () =>
    serverKeyGuards({
      serverKeys: [
        { name: 'billing', key: BILLING },
        { name: 'reports', key: REPORTS },
      ],
      clock,
      perKey: { max: 3, windowMs: 60_000 },
      failures: { max: 2, windowMs: 60_000 },
    })

  it('names the caller whose key the header holds, for the audit trail as server:<name>', async () => {
    const request = requestWith({ 'x-tessera-server-key': REPORTS })
    await guards().requireServerKey(request, reply())
    expect(serverCallerOf(request)).toEqual({ name: 'reports' })
    expect(serverActor(serverCallerOf(request))).toEqual({ type: 'server', name: 'reports' })
  })

  it('refuses a request without the header as a server-only operation (403)', async () => {
    expect(await codeOf(() => guards().requireServerKey(requestWith({ cookie: 'a=b' }), reply()))).toBe(
      'SERVER_ONLY_OPERATION',
    )
  })

  it('refuses a wrong key, and the same address after too many wrong keys', async () => {
    const guard = guards()
    const wrong = requestWith({ 'x-tessera-server-key': `${BILLING}x` })
    expect(await codeOf(() => guard.requireServerKey(wrong, reply()))).toBe('INVALID_SERVER_KEY')
    expect(await codeOf(() => guard.requireServerKey(wrong, reply()))).toBe('INVALID_SERVER_KEY')
    const answer = reply()
    const right = requestWith({ 'x-tessera-server-key': BILLING })
    expect(await codeOf(() => guard.requireServerKey(right, answer))).toBe('TOO_MANY_REQUESTS')
    expect(Number(answer.headers['x-retry-after'])).toBeGreaterThan(0)
    const elsewhere = requestWith({ 'x-tessera-server-key': BILLING }, '10.0.0.2')
    expect(await codeOf(() => guard.requireServerKey(elsewhere, reply()))).toBeNull()
  })

  it('counts wrong keys per IPv6 /64, not per address within it', async () => {
    const guard = guards()
    const wrongFrom = (ip: string) => requestWith({ 'x-tessera-server-key': `${BILLING}x` }, ip)
    expect(await codeOf(() => guard.requireServerKey(wrongFrom('2001:db8:1:2::1'), reply()))).toBe(
      'INVALID_SERVER_KEY',
    )
    expect(await codeOf(() => guard.requireServerKey(wrongFrom('2001:db8:1:2::ffff'), reply()))).toBe(
      'INVALID_SERVER_KEY',
    )
    const right = (ip: string) => requestWith({ 'x-tessera-server-key': BILLING }, ip)
    expect(await codeOf(() => guard.requireServerKey(right('2001:db8:1:2:abcd::9'), reply()))).toBe(
      'TOO_MANY_REQUESTS',
    )
    expect(await codeOf(() => guard.requireServerKey(right('2001:db8:1:3::1'), reply()))).toBeNull()
  })

  it.each([
    ['a cookie', { cookie: 'better-auth.session_token=abc' }],
    ['an Authorization header', { authorization: 'Bearer abc' }],
    ['an Origin header', { origin: 'https://app.example.com' }],
  ])('refuses a good key sent with %s (a browser or a user session)', async (_case, extra) => {
    const request = requestWith({ 'x-tessera-server-key': BILLING, ...extra })
    expect(await codeOf(() => guards().requireServerKey(request, reply()))).toBe('SERVER_KEY_FROM_BROWSER')
  })

  it('limits each key on its own bucket', async () => {
    const guard = guards()
    for (let call = 0; call < 3; call++)
      await guard.requireServerKey(requestWith({ 'x-tessera-server-key': BILLING }), reply())
    expect(
      await codeOf(() => guard.requireServerKey(requestWith({ 'x-tessera-server-key': BILLING }), reply())),
    ).toBe('TOO_MANY_REQUESTS')
    expect(
      await codeOf(() => guard.requireServerKey(requestWith({ 'x-tessera-server-key': REPORTS }), reply())),
    ).toBeNull()
  })

  it('leaves routes for users to users: no header, no caller', async () => {
    expect(await guards().optionalServerKey(requestWith({}), reply())).toBeNull()
    expect(guards().holdsServerKey(requestWith({ 'x-tessera-server-key': 'nope' }))).toBe(false)
    expect(guards().holdsServerKey(requestWith({ 'x-tessera-server-key': BILLING }))).toBe(true)
  })

  it('opens the window again once it has run out', async () => {
    let now = new Date('2026-11-25T10:00:00Z').getTime()
    const guard = serverKeyGuards({
      serverKeys: [{ name: 'billing', key: BILLING }],
      clock: () => new Date(now),
      perKey: { max: 1, windowMs: 60_000 },
    })
    const call = () =>
      codeOf(() => guard.requireServerKey(requestWith({ 'x-tessera-server-key': BILLING }), reply()))
    expect(await call()).toBeNull()
    expect(await call()).toBe('TOO_MANY_REQUESTS')
    now += 60_000
    expect(await call()).toBeNull()
  })

  it('refuses everything when no key is configured', async () => {
    const none = serverKeyGuards({ serverKeys: [], clock })
    const request = requestWith({ 'x-tessera-server-key': BILLING })
    expect(await codeOf(() => none.requireServerKey(request, reply()))).toBe('INVALID_SERVER_KEY')
  })
})
