/// The webhook rules that take days, black box under a test clock (injected at the edge, as the mail
/// tests do; nothing sleeps): an endpoint failing for 3 days is disabled and its owner mailed (a real
/// SMTP sink), attempts older than 30 days are purged, and a rotated secret keeps signing beside the
/// new one for the overlap only (both checked with the `standardwebhooks` package).

import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mailTessera } from '../support/mail-tessera.js'
import { signUp } from '../support/organizations.js'
import { type Received, type Receiver, startReceiver } from '../support/webhook-receiver.js'

const SERVER_KEY = 'webhooks-time-server-key-0123456789abcdef'
const server = { 'x-tessera-server-key': SERVER_KEY }
const HOUR = 3600_000
const DAY = 24 * HOUR

type Attempt = { eventId: string; ok: boolean }
type Endpoint = { id: string; enabled: boolean }

/** Verifies with the package, its clock set to the test clock (it refuses timestamps 5 min off). */
const verifies = (secret: string, received: Received, at: Date): boolean => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(at)
  try {
    new Webhook(secret).verify(received.body, received.headers as Record<string, string>)
    return true
  } catch {
    return false
  } finally {
    vi.useRealTimers()
  }
}

/** Polls until `ready` holds for what `read` gives (the reactor works beside the requests). */
const eventually = async <T>(read: () => Promise<T>, ready: (value: T) => boolean): Promise<T> => {
  for (let tries = 0; ; tries += 1) {
    const value = await read()
    if (ready(value) || tries > 1200) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('webhook rules over days', { timeout: 300_000 }, () => {
  const mail = mailTessera()
  let receiver: Receiver
  let now = () => new Date()
  const start = async () => {
    receiver = await startReceiver()
    await mail.start({ webhooks: { allowAddresses: ['127.0.0.0/8'] } }, { SERVER_KEYS: `app=${SERVER_KEY}` })
    // The test clock mail.start gives Tessera, mirrored here for the verifier.
    let offset = 0
    const base = Date.parse('2026-11-01T10:00:00Z')
    now = () => new Date(base + offset)
    const advance = mail.advance.bind(mail)
    return (ms: number) => {
      offset += ms
      advance(ms)
    }
  }
  afterEach(() => receiver?.close())

  const request = (method: 'GET' | 'POST', path: string, body?: unknown, headers = server) =>
    mail.tessera.api.request(method, path, body, headers)

  const attempts = (endpointId: string) =>
    request('GET', `/webhook/deliveries?endpointId=${endpointId}&limit=100`).then(
      (answer) => answer.json as Attempt[],
    )

  it('disables an endpoint that failed for 3 days and mails its owner, not before', async () => {
    const advance = await start()
    receiver.answer = () => 503
    const owner = await signUp(mail.tessera, 'olga')
    const org = (await owner.post('/organization/create', { name: 'Acme', slug: 'acme' })).json as {
      id: string
    }
    const created = await owner.post('/webhook/create', {
      url: receiver.url,
      eventTypes: ['organization.updated'],
      organizationId: org.id,
    })
    expect(created.status, JSON.stringify(created.json)).toBe(200)
    const { endpoint } = created.json as { endpoint: Endpoint }
    const listed = async () =>
      ((await owner.get(`/webhook/list?organizationId=${org.id}`)).json as Endpoint[])[0]
    expect(
      (await owner.post('/organization/update', { organizationId: org.id, data: { name: 'Acme 2' } })).status,
    ).toBe(200)
    await receiver.until((all) => all.length >= 1, 60_000)

    // Still failing 71 hours on: tried again, still enabled, nobody mailed. (The clock stands still
    // between moves: it is nudged until the next attempt, whenever it fell due, reaches the receiver.)
    advance(71 * HOUR)
    for (let nudges = 0; receiver.received.length < 2 && nudges < 60; nudges += 1) {
      await mail.tessera.webhookReactor?.settle()
      await new Promise((resolve) => setTimeout(resolve, 500))
      advance(10_000)
    }
    await receiver.until((all) => all.length >= 2, 60_000)
    expect((await listed())?.enabled).toBe(true)
    expect(mail.sink.messages).toEqual([])

    // Three days after the first failure: disabled, and the owner told.
    advance(HOUR + 60_000)
    await mail.tessera.webhookReactor?.settle()
    const message = await mail.sink.waitForMail((one) => one.to.includes(owner.email), 60_000)
    expect(message.subject).toBe('A webhook endpoint was disabled')
    expect(message.text).toContain(receiver.url)
    expect((await eventually(listed, (one) => one?.enabled === false))?.enabled).toBe(false)
    expect((await listed())?.id).toBe(endpoint.id)
  })

  it('counts the 3 days from the first failed attempt, though the clock moved while it was in flight', async () => {
    const advance = await start()
    // The first attempt is answered 71 hours on: what a loaded machine did to the test above, whose
    // clock moved before the reactor had read the 503.
    receiver.answer = () => {
      if (receiver.received.length === 0) advance(71 * HOUR)
      return 503
    }
    const owner = await signUp(mail.tessera, 'olga')
    const org = (await owner.post('/organization/create', { name: 'Acme', slug: 'acme' })).json as {
      id: string
    }
    await owner.post('/webhook/create', {
      url: receiver.url,
      eventTypes: ['organization.updated'],
      organizationId: org.id,
    })
    await owner.post('/organization/update', { organizationId: org.id, data: { name: 'Acme 2' } })
    await receiver.until((all) => all.length >= 1, 60_000)
    await mail.tessera.webhookReactor?.settle()

    // 72 hours and a minute after the first attempt: the next one is the last, and the owner is told.
    advance(HOUR + 60_000)
    await mail.tessera.webhookReactor?.settle()
    const message = await mail.sink.waitForMail((one) => one.to.includes(owner.email), 60_000)
    expect(message.text).toContain('have failed since 2026-11-01T10:00:00.000Z')
    expect(receiver.received).toHaveLength(2)
  })

  it('purges attempts older than 30 days and keeps the younger ones', async () => {
    const advance = await start()
    const created = await request('POST', '/webhook/create', {
      url: receiver.url,
      eventTypes: ['user.created'],
    })
    const { endpoint } = created.json as { endpoint: Endpoint }
    await signUp(mail.tessera, 'ann')
    const [old] = await eventually(
      () => attempts(endpoint.id),
      (all) => all.length === 1,
    )
    advance(29 * DAY)
    await signUp(mail.tessera, 'ben')
    const both = await eventually(
      () => attempts(endpoint.id),
      (all) => all.length === 2,
    )
    expect(both).toHaveLength(2)

    advance(DAY + 60_000)
    mail.tessera.webhookReactor?.wake()
    const left = await eventually(
      () => attempts(endpoint.id),
      (all) => all.length < 2,
    )
    expect(left.map((one) => one.eventId)).toEqual(
      both.filter((one) => one.eventId !== old?.eventId).map((one) => one.eventId),
    )
  })

  it('signs with the old secret beside the new one for a day after a rotation, then with the new only', async () => {
    const advance = await start()
    const created = await request('POST', '/webhook/create', {
      url: receiver.url,
      eventTypes: ['user.created'],
    })
    const { endpoint, secret: before } = created.json as { endpoint: Endpoint; secret: string }
    const rotated = await request('POST', '/webhook/rotate-secret', { endpointId: endpoint.id })
    expect(rotated.status, rotated.body).toBe(200)
    const { secret: after } = rotated.json as { secret: string }
    expect(after).not.toBe(before)

    await signUp(mail.tessera, 'ann')
    const [during] = await receiver.until((all) => all.length >= 1, 60_000)
    if (!during) throw new Error('no delivery')
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect([verifies(before, during, now()), verifies(after, during, now())]).toEqual([true, true])

    advance(DAY + 60_000)
    await signUp(mail.tessera, 'ben')
    const [, later] = await receiver.until((all) => all.length >= 2, 60_000)
    if (!later) throw new Error('no delivery')
    expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect([verifies(before, later, now()), verifies(after, later, now())]).toEqual([false, true])
  })
})
