/// One attempt against real loopback servers: a redirect is an answer, not followed; a silent
/// endpoint is given up after the timeout; a name is resolved and its address checked before any
/// connection (`localhost` is loopback: refused unless the operator allows it).

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { addressPolicy } from '../../../infra/webhooks/address-guard.js'
import { createAgentPool } from './endpoint-targets.js'
import { postWebhook } from './post-webhook.js'

const servers: Server[] = []
const agents = createAgentPool()
afterEach(async () => {
  agents.close()
  await Promise.all(
    servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  )
})

/** A loopback server answering with `answer`; counts the requests it got. */
const serve = async (answer: (reply: import('node:http').ServerResponse) => void) => {
  const hits = { count: 0 }
  const server = createServer((request, reply) => {
    hits.count += 1
    request.resume()
    request.on('end', () => answer(reply))
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, hits }
}

const loopback = addressPolicy(['127.0.0.0/8'])
const headers = { 'content-type': 'application/json' }

describe('one webhook attempt', () => {
  it('does not follow a redirect: the 3xx is the answer, the other address gets nothing', async () => {
    const elsewhere = await serve((reply) => reply.writeHead(200).end('ok'))
    const redirecting = await serve((reply) =>
      reply.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/` }).end('see there'),
    )
    const result = await postWebhook(
      loopback,
      `http://127.0.0.1:${redirecting.port}/hook`,
      headers,
      '{}',
      agents,
    )
    expect(result).toMatchObject({ ok: false, status: 302, error: null })
    expect(Object.keys(result).sort()).toEqual(['error', 'latencyMs', 'ok', 'status'])
    expect(elsewhere.hits.count).toBe(0)
  })

  it('gives up on an endpoint that does not answer within the timeout', async () => {
    const silent = await serve(() => undefined)
    const result = await postWebhook(loopback, `http://127.0.0.1:${silent.port}/`, headers, '{}', agents, 300)
    expect(result).toMatchObject({ ok: false, status: null, error: 'no answer within 300 ms' })
    expect(result.latencyMs).toBeLessThan(5_000)
  })

  it('resolves a name and refuses a loopback address unless allowed, before connecting', async () => {
    const target = await serve((reply) => reply.writeHead(204).end())
    const url = `http://localhost:${target.port}/hook`
    const refused = await postWebhook(addressPolicy([]), url, headers, '{}', agents)
    expect(refused.ok).toBe(false)
    expect(refused.status).toBeNull()
    expect(target.hits.count).toBe(0)
    const allowed = await postWebhook(loopback, url, headers, '{}', agents)
    expect(allowed).toMatchObject({ ok: true, status: 204 })
    expect(target.hits.count).toBe(1)
  })
})
