/// An endpoint disabled while a delivery to it is in flight, and enabled again before the answer
/// comes: the reactor dropped the endpoint's worker and made a new one. When the old worker's
/// attempt fails, that worker must arm no retry: on PGlite no lock would keep it from delivering
/// beside the new worker (webhook-reactor.ts, `current`). The receiver holds its answers, so the
/// order of what happens is the test's, not the clock's.

import { describe, expect, it } from 'vitest'
import { signUp } from '../support/organizations.js'
import { useWebhookBed } from '../support/webhook-bed.js'
import type { Received } from '../support/webhook-receiver.js'

const SERVER_KEY = 'webhooks-dropped-server-key-0123456789abcdef'
const server = { 'x-tessera-server-key': SERVER_KEY }

type Attempt = { eventId: string; ok: boolean }

/** An answer the test gives when it chooses; `arrived` resolves when the request came in. */
const heldAnswer = () => {
  let give: (status: number) => void = () => {}
  let arrive: () => void = () => {}
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve
  })
  const status = new Promise<number>((resolve) => {
    give = resolve
  })
  const answer = () => {
    arrive()
    return status
  }
  return { arrived, answer, give: (code: number) => give(code) }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('a webhook worker dropped while its delivery is in flight (pglite)', { timeout: 120_000 }, () => {
  const bed = useWebhookBed('pglite', SERVER_KEY)

  const request = (path: string, body?: unknown) =>
    bed.tessera.api.request(body === undefined ? 'GET' : 'POST', path, body, server)

  const attempts = async (endpointId: string) =>
    (await request(`/webhook/deliveries?endpointId=${endpointId}&limit=100`)).json as Attempt[]

  const eventually = async (endpointId: string, ready: (all: Attempt[]) => boolean) => {
    for (let tries = 0; tries < 400; tries += 1) {
      if (ready(await attempts(endpointId))) return
      await sleep(50)
    }
    throw new Error('the attempts never came')
  }

  it('arms no retry for the old worker: only the new one tries the event again', async () => {
    const created = await request('/webhook/create', { url: bed.receiver.url, eventTypes: ['user.created'] })
    expect(created.status, created.body).toBe(200)
    const endpointId = (created.json as { endpoint: { id: string } }).endpoint.id
    const [oldWorkers, newWorkers] = [heldAnswer(), heldAnswer()]
    const answers = [oldWorkers.answer, newWorkers.answer]
    bed.receiver.answer = () => answers.shift()?.() ?? 200

    await signUp(bed.tessera, 'ada')
    await oldWorkers.arrived
    expect((await request('/webhook/update', { endpointId, enabled: false })).status).toBe(200)
    // The reactor drops the worker once the read model shows the endpoint disabled.
    await sleep(1000)
    expect((await request('/webhook/update', { endpointId, enabled: true })).status).toBe(200)
    // The old worker is still waiting for its answer: the same event sent again is the new worker's.
    await newWorkers.arrived

    // Both fail, the old one first: each worker's run records its attempt and when to try again.
    oldWorkers.give(503)
    await eventually(endpointId, (all) => all.length === 1)
    newWorkers.give(503)
    await eventually(endpointId, (all) => all.length === 2)

    // The new worker's retry, about a second later, succeeds. An old worker with a timer armed would
    // send it too, at that moment or within the second the new one's success waits to be written.
    await eventually(endpointId, (all) => all.some((attempt) => attempt.ok))
    await sleep(3000)
    const userCreated = (received: Received) => received.json.type === 'user.created'
    expect(bed.receiver.received.filter(userCreated)).toHaveLength(3)
    expect((await attempts(endpointId)).map((attempt) => attempt.ok).sort()).toEqual([false, false, true])
  })
})
