/// Resending one webhook message, black box: a real receiver on loopback gets that one message
/// again, alone, with its same `webhook-id`, verified with the `standardwebhooks` package; the
/// attempt is listed as resent; the request is an event with its actor. Who may, and what is refused.

import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { webhookStream } from '../../domain/webhook/webhook.js'
import { databaseKinds } from '../support/databases.js'
import { expectRefusal, signUp } from '../support/organizations.js'
import { useWebhookBed } from '../support/webhook-bed.js'

const SERVER_KEY = 'webhooks-resend-server-key-0123456789abcdef'
const server = { 'x-tessera-server-key': SERVER_KEY }
type Attempt = { eventId: string; ok: boolean; status: number | null; resent: boolean }

for (const kind of databaseKinds)
  describe(`resending a webhook message (${kind})`, { timeout: 120_000 }, () => {
    const bed = useWebhookBed(kind, SERVER_KEY)

    /** The endpoint's attempts once `count` are recorded (the receiver sees a request first). */
    const attemptsOf = async (endpointId: string, count: number, as = server): Promise<Attempt[]> => {
      for (let tries = 0; ; tries += 1) {
        const answer = await bed.tessera.api.request(
          'GET',
          `/webhook/deliveries?endpointId=${endpointId}`,
          undefined,
          as,
        )
        expect(answer.status, answer.body).toBe(200)
        const attempts = answer.json as Attempt[]
        if (attempts.length >= count || tries > 200) return attempts
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }

    it('sends that one message again with its webhook-id, records the attempt and who asked', async () => {
      const created = await bed.tessera.api.request(
        'POST',
        '/webhook/create',
        { url: bed.receiver.url, eventTypes: ['user.created'] },
        server,
      )
      const { endpoint, secret } = created.json as { endpoint: { id: string }; secret: string }
      await signUp(bed.tessera, 'ann')
      await signUp(bed.tessera, 'ben')
      const first = await bed.receiver.until((all) => all.length >= 2)
      const annId = first[0]?.json.id as string
      await attemptsOf(endpoint.id, 2)

      const resend = await bed.tessera.api.request(
        'POST',
        '/webhook/resend',
        { endpointId: endpoint.id, eventId: annId },
        server,
      )
      expect(resend.json).toEqual({ success: true })
      const all = await bed.receiver.until((received) => received.length >= 3)
      // Only ann's message comes again (not ben's after it), with the same id, signed as the spec says.
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(bed.receiver.received.map((one) => one.json.id)).toEqual([annId, first[1]?.json.id, annId])
      const again = all[2]
      expect(again?.headers['webhook-id']).toBe(annId)
      const payload = new Webhook(secret).verify(again?.body ?? '', again?.headers as Record<string, string>)
      expect(payload).toMatchObject({ id: annId, type: 'user.created', data: { name: 'ann' } })

      const attempts = await attemptsOf(endpoint.id, 3)
      expect(attempts[0]).toMatchObject({ eventId: annId, ok: true, status: 200, resent: true })
      expect(attempts.filter((attempt) => attempt.resent)).toHaveLength(1)
      const events = await bed.tessera.ctx.store.readStream(webhookStream(endpoint.id))
      const asked = events.find((event) => event.type === 'webhook.resend-requested')
      expect(asked?.data).toMatchObject({ endpointId: endpoint.id, eventId: annId })
      expect(asked?.metadata.actor).toMatchObject({ type: 'server' })
    })

    it('refuses an unknown message, another organization’s endpoint, a plain member and a disabled endpoint', async () => {
      const owner = await signUp(bed.tessera, 'olga')
      const stranger = await signUp(bed.tessera, 'sam')
      const member = await signUp(bed.tessera, 'mel')
      const org = (await owner.post('/organization/create', { name: 'Acme', slug: 'acme' })).json as {
        id: string
      }
      expect((await stranger.post('/organization/create', { name: 'Other', slug: 'other' })).status).toBe(200)
      const made = await owner.post('/webhook/create', {
        url: bed.receiver.url,
        eventTypes: ['member.created'],
        organizationId: org.id,
      })
      const endpointId = (made.json as { endpoint: { id: string } }).endpoint.id
      const added = await bed.tessera.api.request(
        'POST',
        '/organization/add-member',
        { userId: member.userId, role: 'member', organizationId: org.id },
        server,
      )
      expect(added.status, added.body).toBe(200)
      const [message] = await bed.receiver.until((all) => all.length >= 1)
      const eventId = message?.json.id as string
      await attemptsOf(endpointId, 1)

      expectRefusal(
        await owner.post('/webhook/resend', { endpointId, eventId: 'no-such-event' }),
        404,
        'WEBHOOK_MESSAGE_NOT_FOUND',
      )
      // sam owns another organization; mel is a plain member of Acme.
      expectRefusal(
        await stranger.post('/webhook/resend', { endpointId, eventId }),
        403,
        'YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS',
      )
      expectRefusal(
        await member.post('/webhook/resend', { endpointId, eventId }),
        403,
        'YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS',
      )
      expect((await owner.post('/webhook/update', { endpointId, enabled: false })).status).toBe(200)
      expectRefusal(
        await owner.post('/webhook/resend', { endpointId, eventId }),
        400,
        'WEBHOOK_ENDPOINT_DISABLED',
      )
      expect((await owner.post('/webhook/update', { endpointId, enabled: true })).status).toBe(200)
      expect((await owner.post('/webhook/resend', { endpointId, eventId })).json).toEqual({ success: true })
      const again = await bed.receiver.until((all) => all.length >= 2)
      expect(again[1]?.headers['webhook-id']).toBe(eventId)
    })
  })
