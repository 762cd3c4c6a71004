/// The kept targets: an endpoint's name is resolved and checked once per TARGET_TTL and again after
/// an attempt that got no answer; another URL or another policy is never answered from an entry made
/// for the first; a refused address is refused on every attempt.

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { type AddressPolicy, addressPolicy, resolveTarget } from '../../../infra/webhooks/address-guard.js'
import { createEndpointTargets } from './endpoint-targets.js'
import { postWebhook } from './post-webhook.js'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  )
})

const serve = async () => {
  const hits = { count: 0 }
  const server = createServer((request, reply) => {
    hits.count += 1
    request.resume()
    request.on('end', () => reply.writeHead(204).end())
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, hits }
}

const loopback = addressPolicy(['127.0.0.0/8'])
const headers = { 'webhook-id': 'msg_1' }

/** A pool whose clock the test moves, counting the resolutions it makes. */
const countingPool = (ttlMs = 1000) => {
  const clock = { now: 0 }
  const resolved: string[] = []
  const endpointTargets = createEndpointTargets({
    now: () => clock.now,
    ttlMs,
    resolve: (policy: AddressPolicy, url: URL) => {
      resolved.push(url.href)
      return resolveTarget(policy, url)
    },
  })
  return { endpointTargets, clock, resolved }
}

describe('kept endpoint targets', () => {
  it('resolves a URL once within the TTL and again after it', async () => {
    const { endpointTargets, clock, resolved } = countingPool(1000)
    const target = await serve()
    const url = `http://localhost:${target.port}/hook`
    try {
      expect((await postWebhook(loopback, url, headers, '{}', endpointTargets)).status).toBe(204)
      clock.now = 999
      expect((await postWebhook(loopback, url, headers, '{}', endpointTargets)).status).toBe(204)
      expect(resolved).toHaveLength(1)
      clock.now = 1000
      expect((await postWebhook(loopback, url, headers, '{}', endpointTargets)).status).toBe(204)
      expect(resolved).toHaveLength(2)
      expect(target.hits.count).toBe(3)
    } finally {
      endpointTargets.close()
    }
  })

  it('resolves again after an attempt that got no answer', async () => {
    const { endpointTargets, resolved } = countingPool(60_000)
    const closed = await serve()
    await new Promise<void>((resolve) => servers.pop()?.close(() => resolve()))
    const url = `http://127.0.0.1:${closed.port}/`
    try {
      const failed = await postWebhook(loopback, url, headers, '{}', endpointTargets)
      expect(failed).toMatchObject({ ok: false, status: null })
      await postWebhook(loopback, url, headers, '{}', endpointTargets)
      expect(resolved).toHaveLength(2)
    } finally {
      endpointTargets.close()
    }
  })

  it('never answers a changed URL or policy from the entry made for another', async () => {
    const { endpointTargets, resolved } = countingPool(60_000)
    const [first, second] = [await serve(), await serve()]
    try {
      await postWebhook(loopback, `http://127.0.0.1:${first.port}/`, headers, '{}', endpointTargets)
      const moved = await postWebhook(
        loopback,
        `http://127.0.0.1:${second.port}/`,
        headers,
        '{}',
        endpointTargets,
      )
      expect(moved.status).toBe(204)
      expect([first.hits.count, second.hits.count]).toEqual([1, 1])
      // The same URL under a policy that no longer allows loopback: checked again, and refused.
      const refused = await postWebhook(
        addressPolicy([]),
        `http://127.0.0.1:${second.port}/`,
        headers,
        '{}',
        endpointTargets,
      )
      expect(refused).toMatchObject({ ok: false, status: null })
      expect(second.hits.count).toBe(1)
      expect(resolved).toHaveLength(3)
    } finally {
      endpointTargets.close()
    }
  })

  it('refuses a refused address on every attempt, without keeping it', async () => {
    const { endpointTargets, resolved } = countingPool(60_000)
    const target = await serve()
    const url = `http://localhost:${target.port}/`
    try {
      for (let attempt = 0; attempt < 2; attempt += 1)
        expect((await postWebhook(addressPolicy([]), url, headers, '{}', endpointTargets)).error).toMatch(
          /not an address webhooks may be sent to/,
        )
      expect(resolved).toHaveLength(2)
      expect(target.hits.count).toBe(0)
    } finally {
      endpointTargets.close()
    }
  })
})
