/// How long an endpoint's run follows the log (webhook-reactor.ts): 30 s of the clock, so steady
/// commits do not make each endpoint take its lock and read its endpoint, checkpoint and secrets
/// again every few seconds (issue 34). A run's attempts are written together when it reaches the
/// log's end within a second of the first (endpoint-worker.ts), and a run's end writes what it has:
/// two commits 10 s of the test clock apart land in one write only if one run delivered both. A
/// write's rows share its transaction id (`xmin`).

import { describe, expect, it } from 'vitest'
import { mailTessera } from '../support/mail-tessera.js'
import { signUp } from '../support/organizations.js'
import { attemptWritesOf } from '../support/webhook-bed.js'
import { type Receiver, startReceiver } from '../support/webhook-receiver.js'

const SERVER_KEY = 'webhooks-run-length-key-0123456789abcdef'
const server = { 'x-tessera-server-key': SERVER_KEY }

describe("an endpoint's run", { timeout: 120_000 }, () => {
  const mail = mailTessera()
  let receiver: Receiver

  const writesOf = (endpointId: string) => attemptWritesOf(mail.tessera.database.db, endpointId)

  it('goes on following commits 10 s of the clock apart: their attempts land in one write', async () => {
    receiver = await startReceiver()
    try {
      await mail.start(
        { webhooks: { allowAddresses: ['127.0.0.0/8'] } },
        { SERVER_KEYS: `app=${SERVER_KEY}` },
      )
      const ada = await signUp(mail.tessera, 'ada')
      const created = await mail.tessera.api.request(
        'POST',
        '/webhook/create',
        { url: receiver.url, eventTypes: ['user.updated'] },
        server,
      )
      expect(created.status, created.body).toBe(200)
      const endpointId = (created.json as { endpoint: { id: string } }).endpoint.id
      expect((await ada.post('/update-user', { name: 'Ada 1' })).status).toBe(200)
      await receiver.until((all) => all.length >= 1)
      mail.advance(10_000)
      expect((await ada.post('/update-user', { name: 'Ada 2' })).status).toBe(200)
      const received = await receiver.until((all) => all.length >= 2)
      expect(received.map((one) => one.json.data.name)).toEqual(['Ada 1', 'Ada 2'])

      let written = await writesOf(endpointId)
      for (let tries = 0; written.attempts < 2 && tries < 100; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        written = await writesOf(endpointId)
      }
      expect(written).toEqual({ writes: 1, attempts: 2 })
    } finally {
      await receiver.close()
    }
  })
})
