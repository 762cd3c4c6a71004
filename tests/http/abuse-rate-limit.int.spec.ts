/// Abuse limits over HTTP (rate limiting on): the two names of the reset route share a bucket, the
/// mail-sending routes and delete-user get the strict rule, and a per-recipient limit stops anyone
/// mail-bombing one address from many IPs, without telling whether the address has an account.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_OUTSTANDING_TOKENS } from '../../domain/user/user.decide.js'
import { START } from '../../infra/event-store/event-store.js'
import { RECIPIENT_RULE } from '../../infra/http/rate-limit.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'

let tessera: TestTessera
let ipCounter = 0
/** A fresh client address per call unless one is named: only the per-recipient limit can bite. */
const freshIp = () => `198.51.100.${(ipCounter++ % 250) + 1}`

const call = async (
  url: string,
  body: object,
  { ip = freshIp(), cookie }: { ip?: string; cookie?: string } = {},
) => {
  const app = tessera.app
  if (!app) throw new Error('no HTTP app')
  const response = await app.inject({
    method: 'POST',
    url: `/api/auth${url}`,
    remoteAddress: ip,
    headers: {
      'content-type': 'application/json',
      ...(cookie ? { cookie, origin: tessera.ctx.config.baseOrigin } : {}),
    },
    payload: JSON.stringify(body),
  })
  return { status: response.statusCode, json: response.json() as unknown, headers: response.headers }
}

const signUp = async (email: string) => {
  const answer = await call('/sign-up/email', { name: 'Ada', email, password: PASSWORD })
  expect(answer.status).toBe(200)
  const setCookie = [answer.headers['set-cookie'] ?? []].flat().map(String)
  return setCookie.map((cookie) => cookie.split(';')[0]).join('; ')
}

const countEvents = async (type: string) =>
  (await tessera.ctx.store.readAll(START, 10_000)).filter((event) => event.type === type).length

beforeAll(async () => {
  tessera = await startTessera({ env: { RATE_LIMIT: 'on' } })
})
afterAll(async () => {
  await tessera.cleanup()
})

describe('per-IP buckets', { timeout: 240_000 }, () => {
  it('/forget-password and /request-password-reset share one bucket', async () => {
    const ip = '203.0.113.10'
    const seen = [
      (await call('/request-password-reset', { email: 'one@example.com' }, { ip })).status,
      (await call('/forget-password', { email: 'two@example.com' }, { ip })).status,
      (await call('/request-password-reset', { email: 'three@example.com' }, { ip })).status,
      (await call('/forget-password', { email: 'four@example.com' }, { ip })).status,
    ]
    expect(seen).toEqual([200, 200, 200, 429])
  })

  it('gives the mail-sending routes the strict rule (3 per 10 s)', async () => {
    for (const [index, path] of ['/send-verification-email', '/request-password-reset'].entries()) {
      const ip = `203.0.113.${20 + index}`
      const seen: number[] = []
      for (let i = 0; i < 4; i++) seen.push((await call(path, { email: `x${i}@example.com` }, { ip })).status)
      expect(seen).toEqual([200, 200, 200, 429])
    }
  })

  it('limits delete-user with a password like sign-in: no faster password oracle', async () => {
    const cookie = await signUp('oracle@example.com')
    const ip = '203.0.113.30'
    const seen: number[] = []
    for (let i = 0; i < 4; i++)
      seen.push((await call('/delete-user', { password: `guess number ${i}` }, { ip, cookie })).status)
    expect(seen).toEqual([400, 400, 400, 429])
  })
})

describe('per-recipient limit', { timeout: 240_000 }, () => {
  it('stops mail to one address from many IPs, the same way whether or not it has an account', async () => {
    await signUp('victim@example.com')
    const before = await countEvents('user.password-reset-requested')
    const answers = async (email: string) => {
      const seen: number[] = []
      for (let i = 0; i <= RECIPIENT_RULE.max; i++)
        seen.push((await call('/request-password-reset', { email })).status)
      return seen
    }
    const known = await answers('victim@example.com')
    const unknown = await answers('nobody-here@example.com')
    const expected = [...Array(RECIPIENT_RULE.max).fill(200), 429]
    expect(known).toEqual(expected)
    expect(unknown).toEqual(expected)
    // Another spelling of the same address is the same recipient.
    expect((await call('/forget-password', { email: ' VICTIM@Example.com' })).status).toBe(429)
    // Refused requests record nothing, and neither do those past the outstanding-link cap.
    const recorded = Math.min(RECIPIENT_RULE.max, MAX_OUTSTANDING_TOKENS)
    await expect.poll(() => countEvents('user.password-reset-requested')).toBe(before + recorded)
    // Another address is not affected.
    expect((await call('/request-password-reset', { email: 'bystander@example.com' })).status).toBe(200)
  })

  it('counts verification mails and change-email targets against the recipient too', async () => {
    const target = 'target@example.com'
    for (let i = 0; i < RECIPIENT_RULE.max; i++)
      expect((await call('/send-verification-email', { email: target })).status).toBe(200)
    expect((await call('/send-verification-email', { email: target })).status).toBe(429)
    const cookie = await signUp('mover@example.com')
    expect((await call('/change-email', { newEmail: target }, { cookie })).status).toBe(429)
  })

  it('counts organization invitations against the invited address', async () => {
    const cookie = await signUp('inviter@example.com')
    const created = await call('/organization/create', { name: 'Mailers', slug: 'mailers' }, { cookie })
    expect(created.status).toBe(200)
    const invite = () =>
      call(
        '/organization/invite-member',
        { email: 'invitee@example.com', role: 'member', resend: true },
        { cookie },
      )
    const seen: number[] = []
    for (let i = 0; i <= RECIPIENT_RULE.max; i++) seen.push((await invite()).status)
    expect(seen).toEqual([...Array(RECIPIENT_RULE.max).fill(200), 429])
    // The address is the bucket: the reset route to it is now refused as well.
    expect((await call('/request-password-reset', { email: 'invitee@example.com' })).status).toBe(429)
  })

  it('counts delete-user attempts per account, whatever IPs the session comes from', async () => {
    const cookie = await signUp('many-ips@example.com')
    const seen: number[] = []
    for (let i = 0; i <= RECIPIENT_RULE.max; i++)
      seen.push((await call('/delete-user', { password: `guess ${i}` }, { cookie })).status)
    expect(seen).toEqual([...Array(RECIPIENT_RULE.max).fill(400), 429])
  })
})
