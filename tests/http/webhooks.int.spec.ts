/// Webhooks, black box: a real receiver on loopback (allowed by `webhooks.allowAddresses`), every
/// delivery verified with the `standardwebhooks` package (not our own signing code); a retry keeps
/// the webhook-id; an erased person's later deliveries carry no personal field; private addresses
/// refused; who may manage which endpoints.

import { Webhook } from 'standardwebhooks'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { databaseKinds } from '../support/databases.js'
import { expectRefusal, signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { type Received, type Receiver, startReceiver } from '../support/webhook-receiver.js'

const SERVER_KEY = 'webhooks-test-server-key-0123456789abcdef'
const server = { 'x-tessera-server-key': SERVER_KEY }

const verified = (secret: string, received: Received) =>
  new Webhook(secret).verify(received.body, received.headers as Record<string, string>) as {
    id: string
    type: string
    data: Record<string, unknown>
  }

// On both databases: PostgreSQL (production, several processes) and embedded PGlite.
for (const kind of databaseKinds)
  describe(`webhooks (${kind})`, { timeout: 120_000 }, () => {
    let tessera: TestTessera
    let receiver: Receiver
    beforeEach(async () => {
      receiver = await startReceiver()
      tessera = await startTessera({
        kind,
        env: { SERVER_KEYS: `app=${SERVER_KEY}` },
        features: {
          webhooks: { allowAddresses: ['127.0.0.0/8'] },
          user: { deleteUser: { immediate: true } },
        },
      })
    })
    afterEach(async () => {
      await tessera.cleanup()
      await receiver.close()
    })

    const create = async (body: object, headers: Record<string, string> = server) => {
      const response = await tessera.api.request('POST', '/webhook/create', body, headers)
      expect(response.status, response.body).toBe(200)
      return response.json as { endpoint: { id: string; organizationId: string | null }; secret: string }
    }

    it('delivers sign-ups signed as Standard Webhooks say, with the person’s email and name', async () => {
      const { endpoint, secret } = await create({
        url: receiver.url,
        eventTypes: ['user.created', 'session.created'],
      })
      expect(secret).toMatch(/^whsec_/)
      expect(endpoint).toMatchObject({ organizationId: null })
      const ada = await signUp(tessera, 'ada')
      const received = await receiver.until((all) => all.length >= 2)
      const payloads = received.map((one) => verified(secret, one))
      expect(payloads.map((payload) => payload.type)).toEqual(['user.created', 'session.created'])
      expect(payloads[0]?.data).toMatchObject({ userId: ada.userId, email: 'ada@example.com', name: 'ada' })
      // No internal field leaves: no token hash, no password hash, no internal type name.
      for (const one of received)
        expect(one.body).not.toMatch(/tokenHash|passwordHash|credential|session\.started/)
      expect(received[0]?.headers['webhook-id']).toBe(payloads[0]?.id)
      // A wrong secret does not verify.
      expect(() => verified('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', received[0] as Received)).toThrow()
    })

    it('tries a refused delivery again with the same webhook-id, and shows both attempts', async () => {
      const { endpoint, secret } = await create({ url: receiver.url, eventTypes: ['user.created'] })
      let first = true
      receiver.answer = () => {
        const status = first ? 500 : 200
        first = false
        return status
      }
      await signUp(tessera, 'bob')
      const received = await receiver.until((all) => all.length >= 2)
      expect(received[1]?.headers['webhook-id']).toBe(received[0]?.headers['webhook-id'])
      for (const one of received) verified(secret, one)
      // The receiver sees a request before its attempt is recorded: read until the second is there.
      type Attempt = { status: number; attempt: number; ok: boolean }
      let attempts: Attempt[] = []
      for (let tries = 0; attempts.length < 2 && tries < 100; tries += 1) {
        if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 50))
        const deliveries = await tessera.api.request(
          'GET',
          `/webhook/deliveries?endpointId=${endpoint.id}`,
          undefined,
          server,
        )
        expect(deliveries.status).toBe(200)
        attempts = (deliveries.json as Attempt[]).reverse()
      }
      expect(attempts.map(({ status, attempt, ok }) => ({ status, attempt, ok }))).toEqual([
        { status: 500, attempt: 1, ok: false },
        { status: 200, attempt: 2, ok: true },
      ])
    })

    it('replays from a delivery attempt: that event again, then every later one, in order', async () => {
      const { endpoint } = await create({ url: receiver.url, eventTypes: ['user.created'] })
      for (const name of ['ann', 'ben', 'cat']) await signUp(tessera, name)
      const first = await receiver.until((all) => all.length >= 3)
      const ids = first.map((one) => one.json.id)
      type Attempt = { eventId: string; replayFrom: string | null }
      let attempts: Attempt[] = []
      for (let tries = 0; attempts.length < 3 && tries < 100; tries += 1) {
        if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 50))
        const answer = await tessera.api.request(
          'GET',
          `/webhook/deliveries?endpointId=${endpoint.id}`,
          undefined,
          server,
        )
        attempts = answer.json as Attempt[]
      }
      const ben = attempts.find((attempt) => attempt.eventId === ids[1])
      expect(ben?.replayFrom).toEqual(expect.any(String))
      const replay = await tessera.api.request(
        'POST',
        '/webhook/replay',
        { endpointId: endpoint.id, after: ben?.replayFrom },
        server,
      )
      expect(replay.status, replay.body).toBe(200)
      const all = await receiver.until((received) => received.length >= 5)
      expect(all.map((one) => one.json.id)).toEqual([...ids, ids[1], ids[2]])
    })

    it('after a person is erased, their events are delivered with ids and types only', async () => {
      const cyd = await signUp(tessera, 'cyd')
      expect((await cyd.post('/delete-user', {})).status).toBe(200)
      const { endpoint, secret } = await create({
        url: receiver.url,
        eventTypes: ['user.created', 'user.deleted'],
      })
      const replay = await tessera.api.request('POST', '/webhook/replay', { endpointId: endpoint.id }, server)
      expect(replay.status, replay.body).toBe(200)
      const received = await receiver.until((all) => all.some((one) => one.json.type === 'user.deleted'))
      const created = received.map((one) => verified(secret, one)).find((one) => one.type === 'user.created')
      expect(created?.data).toEqual({ userId: cyd.userId, emailVerified: false })
      expect(received.map((one) => one.body).join('')).not.toContain('cyd')
    })

    it('refuses addresses in private, link-local and loopback ranges that the operator did not allow', async () => {
      for (const url of [
        'http://10.1.2.3/hook',
        'http://169.254.169.254/latest',
        'http://192.168.1.1/',
        'http://[::1]:9/x',
      ])
        expectRefusal(
          await tessera.api.request('POST', '/webhook/create', { url, eventTypes: ['user.created'] }, server),
          400,
          'WEBHOOK_ADDRESS_NOT_ALLOWED',
        )
      expectRefusal(
        await tessera.api.request(
          'POST',
          '/webhook/create',
          { url: receiver.url, eventTypes: ['user.secret'] },
          server,
        ),
        400,
        'UNKNOWN_EVENT_TYPE',
      )
    })

    it('deletes an endpoint: gone from the list, and a second delete finds nothing', async () => {
      const { endpoint } = await create({ url: receiver.url, eventTypes: ['user.created'] })
      const deleted = await tessera.api.request(
        'POST',
        '/webhook/delete',
        { endpointId: endpoint.id },
        server,
      )
      expect(deleted.json).toEqual({ success: true })
      const listed = await tessera.api.request('GET', '/webhook/list', undefined, server)
      expect(listed.json).toEqual([])
      expectRefusal(
        await tessera.api.request('POST', '/webhook/delete', { endpointId: endpoint.id }, server),
        404,
        'WEBHOOK_ENDPOINT_NOT_FOUND',
      )
    })

    it('lets owners and admins manage their organization’s endpoints only; members get 403', async () => {
      const owner = await signUp(tessera, 'olga')
      const member = await signUp(tessera, 'mel')
      const org = (await owner.post('/organization/create', { name: 'Acme', slug: 'acme' })).json as {
        id: string
      }
      const added = await tessera.api.request(
        'POST',
        '/organization/add-member',
        { userId: member.userId, role: 'member', organizationId: org.id },
        server,
      )
      expect(added.status, added.body).toBe(200)
      await create({ url: receiver.url, eventTypes: ['user.created'] })
      const own = await owner.post('/webhook/create', {
        url: receiver.url,
        eventTypes: ['member.created', 'member.deleted'],
        organizationId: org.id,
      })
      expect(own.status, own.body).toBe(200)
      const listed = await owner.get(`/webhook/list?organizationId=${org.id}`)
      expect((listed.json as { id: string }[]).map((one) => one.id)).toEqual([
        (own.json as { endpoint: { id: string } }).endpoint.id,
      ])
      expectRefusal(await owner.get('/webhook/list'), 403, 'YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS')
      expectRefusal(
        await member.get(`/webhook/list?organizationId=${org.id}`),
        403,
        'YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS',
      )
      expectRefusal(
        await member.post('/webhook/create', {
          url: receiver.url,
          eventTypes: ['member.created'],
          organizationId: org.id,
        }),
        403,
        'YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS',
      )
      expectRefusal(
        await member.post('/webhook/delete', {
          endpointId: (own.json as { endpoint: { id: string } }).endpoint.id,
        }),
        403,
        'YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS',
      )
      expectRefusal(
        await owner.post('/webhook/create', { url: receiver.url, eventTypes: ['user.created'] }),
        403,
        'YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS',
      )
      // The organization's endpoint receives that organization's events only: another organization
      // made before the member leaves would arrive first (delivery is in log order) were it let through.
      const other = await signUp(tessera, 'oz')
      expect((await other.post('/organization/create', { name: 'Other', slug: 'other' })).status).toBe(200)
      expect((await member.post('/organization/leave', { organizationId: org.id })).status).toBe(200)
      const received = await receiver.until((all) => all.some((one) => one.json.type === 'member.deleted'))
      const memberEvents = received.filter((one) => one.json.type.startsWith('member.'))
      expect(memberEvents.map((one) => [one.json.type, one.json.data.organizationId])).toEqual([
        ['member.deleted', org.id],
      ])
    })
  })
