/// More endpoints than the database pool has connections (12 against 10), black box: every endpoint
/// gets every event in log order, while the service keeps answering. Each endpoint's sender used to
/// hold a pooled connection for its whole run, so ten delivering at once held the pool and waited
/// on it themselves to read the log: nothing was delivered, and requests stalled with them.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { databaseKinds } from '../support/databases.js'
import { signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { type Receiver, startReceiver } from '../support/webhook-receiver.js'

const SERVER_KEY = 'webhooks-many-server-key-0123456789abcdef'
const server = { 'x-tessera-server-key': SERVER_KEY }
const ENDPOINTS = 12
const RENAMES = 5

for (const kind of databaseKinds)
  describe(`webhooks to ${ENDPOINTS} endpoints at once (${kind})`, { timeout: 120_000 }, () => {
    let tessera: TestTessera
    let receivers: Receiver[]
    beforeEach(async () => {
      receivers = await Promise.all(Array.from({ length: ENDPOINTS }, () => startReceiver()))
      tessera = await startTessera({
        kind,
        env: { SERVER_KEYS: `app=${SERVER_KEY}` },
        features: { webhooks: { allowAddresses: ['127.0.0.0/8'] } },
      })
    })
    afterEach(async () => {
      await tessera.cleanup()
      await Promise.all(receivers.map((receiver) => receiver.close()))
    })

    it('delivers every event to every endpoint, each in log order, and get-session still answers', async () => {
      for (const receiver of receivers) {
        const created = await tessera.api.request(
          'POST',
          '/webhook/create',
          { url: receiver.url, eventTypes: ['user.created', 'user.updated'] },
          server,
        )
        expect(created.status, created.body).toBe(200)
      }
      const ada = await signUp(tessera, 'ada')
      const names = Array.from({ length: RENAMES }, (_, n) => `Ada ${n}`)
      for (const name of names) expect((await ada.post('/update-user', { name })).status).toBe(200)
      // Requests go on while the senders run.
      const session = await ada.get('/get-session')
      expect(session.status).toBe(200)

      for (const receiver of receivers) {
        const received = await receiver.until((all) => all.length >= RENAMES + 1)
        expect(received.map((one) => one.json.type)).toEqual([
          'user.created',
          ...names.map(() => 'user.updated'),
        ])
        expect(received.slice(1).map((one) => one.json.data.name)).toEqual(names)
      }
    })
  })
