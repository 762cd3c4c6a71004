/// When a webhook endpoint's attempts are written (endpoint-worker.ts): commits that follow each other
/// within a second are delivered as they come, and their attempts written together, in one
/// transaction, rather than one write for each commit the endpoint caught up with. A write's rows
/// share its transaction id (`xmin`), which tells the writes apart from outside.

import { describe, expect, it } from 'vitest'
import { databaseKinds } from '../support/databases.js'
import { signUp } from '../support/organizations.js'
import { attemptWritesOf, useWebhookBed } from '../support/webhook-bed.js'

const SERVER_KEY = 'webhooks-writes-server-key-0123456789abcdef'
const server = { 'x-tessera-server-key': SERVER_KEY }

for (const kind of databaseKinds)
  describe(`webhook attempts' writes (${kind})`, { timeout: 120_000 }, () => {
    const bed = useWebhookBed(kind, SERVER_KEY)

    const writesOf = (endpointId: string) => attemptWritesOf(bed.tessera.database.db, endpointId)

    it('delivers two commits a moment apart as they come, and writes their attempts once', async () => {
      const ada = await signUp(bed.tessera, 'ada')
      const created = await bed.tessera.api.request(
        'POST',
        '/webhook/create',
        { url: bed.receiver.url, eventTypes: ['user.updated'] },
        server,
      )
      expect(created.status, created.body).toBe(200)
      const endpointId = (created.json as { endpoint: { id: string } }).endpoint.id
      expect((await ada.post('/update-user', { name: 'Ada 1' })).status).toBe(200)
      // The first is delivered, at the log's end, before the second is committed.
      await bed.receiver.until((all) => all.length >= 1)
      expect((await ada.post('/update-user', { name: 'Ada 2' })).status).toBe(200)
      const received = await bed.receiver.until((all) => all.length >= 2)
      expect(received.map((one) => one.json.data.name)).toEqual(['Ada 1', 'Ada 2'])

      let written = await writesOf(endpointId)
      for (let tries = 0; written.attempts < 2 && tries < 100; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        written = await writesOf(endpointId)
      }
      expect(written).toEqual({ writes: 1, attempts: 2 })
    })
  })
