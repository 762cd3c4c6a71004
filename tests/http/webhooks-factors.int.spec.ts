/// Second factors and passkeys in the public catalogue, black box: turning two-factor on and off,
/// adding, renaming and removing a passkey reach a real receiver as `two-factor.*` and `passkey.*`
/// (verified with the `standardwebhooks` package), with no key material, hash or internal name;
/// their payload schemas are in the OpenAPI document.

import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { softwareAuthenticator } from '../../bench/software-authenticator.js'
import { databaseKinds } from '../support/databases.js'
import { signUp } from '../support/organizations.js'
import { type PasskeyJson, registerPasskey } from '../support/passkeys.js'
import { useWebhookBed } from '../support/webhook-bed.js'

const SERVER_KEY = 'webhooks-factors-server-key-0123456789abcdef'
const server = { 'x-tessera-server-key': SERVER_KEY }
const PASSWORD = 'correct horse battery'

const TYPES = [
  'two-factor.enabled',
  'two-factor.disabled',
  'passkey.added',
  'passkey.updated',
  'passkey.removed',
]

// On both databases: PostgreSQL (production, several processes) and embedded PGlite.
for (const kind of databaseKinds)
  describe(`two-factor and passkey webhooks (${kind})`, { timeout: 120_000 }, () => {
    const bed = useWebhookBed(kind, SERVER_KEY)

    it('delivers a factor turned on and off, and a passkey added, renamed and removed', async () => {
      const created = await bed.tessera.api.request(
        'POST',
        '/webhook/create',
        { url: bed.receiver.url, eventTypes: TYPES },
        server,
      )
      expect(created.status, created.body).toBe(200)
      const { secret } = created.json as { secret: string }
      const ada = await signUp(bed.tessera, 'ada')
      expect((await ada.post('/two-factor/enable', { password: PASSWORD, method: 'otp' })).status).toBe(200)
      expect((await ada.post('/two-factor/disable', { password: PASSWORD })).status).toBe(200)
      const authenticator = softwareAuthenticator({ origin: 'http://localhost:3000', rpId: 'localhost' })
      const added = await registerPasskey(ada, authenticator, { name: 'Ada’s key' })
      expect(added.status, added.body).toBe(200)
      const passkey = added.json as PasskeyJson
      expect((await ada.post('/passkey/update-passkey', { id: passkey.id, name: 'Work key' })).status).toBe(
        200,
      )
      expect((await ada.post('/passkey/delete-passkey', { id: passkey.id })).status).toBe(200)

      const received = await bed.receiver.until((all) => all.length >= 5)
      const payloads = received.map(
        (one) =>
          new Webhook(secret).verify(one.body, one.headers as Record<string, string>) as {
            type: string
            subject: string
            data: Record<string, unknown>
          },
      )
      expect(payloads.map(({ type, subject, data }) => ({ type, subject, data }))).toEqual([
        { type: 'two-factor.enabled', subject: ada.userId, data: { userId: ada.userId, method: 'otp' } },
        { type: 'two-factor.disabled', subject: ada.userId, data: { userId: ada.userId } },
        {
          type: 'passkey.added',
          subject: passkey.id,
          data: {
            passkeyId: passkey.id,
            userId: ada.userId,
            name: 'Ada’s key',
            deviceType: passkey.deviceType,
            backedUp: passkey.backedUp,
          },
        },
        {
          type: 'passkey.updated',
          subject: passkey.id,
          data: { passkeyId: passkey.id, userId: ada.userId, name: 'Work key' },
        },
        { type: 'passkey.removed', subject: passkey.id, data: { passkeyId: passkey.id, userId: ada.userId } },
      ])
      const bodies = received.map((one) => one.body).join('\n')
      expect(bodies).not.toContain(passkey.publicKey)
      expect(bodies).not.toContain(passkey.credentialID)
      expect(bodies).not.toMatch(/registered|deleted|backupCode|secret|Hash/)
    })

    it('lists them among the event types an endpoint may ask for', async () => {
      const answer = await bed.tessera.api.request('GET', '/webhook/event-types')
      expect(answer.status).toBe(200)
      const { version, eventTypes } = answer.json as { version: string; eventTypes: string[] }
      expect(version).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(eventTypes).toEqual(expect.arrayContaining([...TYPES, 'user.created', 'member.created']))
      expect(eventTypes).not.toContain('passkey.used')
    })

    it('publishes each payload schema in the OpenAPI document', async () => {
      const answer = await bed.tessera.api.request('GET', '/open-api/generate-schema')
      expect(answer.status).toBe(200)
      const document = answer.body
      const schemaOf = (type: string) => {
        const found: unknown[] = []
        const visit = (node: unknown) => {
          if (Array.isArray(node)) node.forEach(visit)
          else if (node && typeof node === 'object') {
            const record = node as Record<string, unknown>
            if (record.title === type) found.push(record)
            Object.values(record).forEach(visit)
          }
        }
        visit(JSON.parse(document))
        return found[0] as { properties: { data: { properties: Record<string, { type?: unknown }> } } }
      }
      for (const type of TYPES) expect(schemaOf(type), type).toBeDefined()
      expect(Object.keys(schemaOf('passkey.added').properties.data.properties).sort()).toEqual(
        ['backedUp', 'deviceType', 'name', 'passkeyId', 'userId'].sort(),
      )
      expect(schemaOf('passkey.added').properties.data.properties.backedUp?.type).toBe('boolean')
      expect(Object.keys(schemaOf('two-factor.enabled').properties.data.properties).sort()).toEqual([
        'method',
        'userId',
      ])
    })
  })
