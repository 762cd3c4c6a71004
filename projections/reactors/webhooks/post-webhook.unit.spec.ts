/// One attempt against real loopback servers: a redirect is an answer, not followed; a silent
/// endpoint is given up after the timeout; a name is resolved and its address checked before any
/// connection (`localhost` is loopback: refused unless the operator allows it).

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { addressPolicy } from '../../../infra/webhooks/address-guard.js'
import { createEndpointTargets } from './endpoint-targets.js'
import { postWebhook } from './post-webhook.js'

const servers: Server[] = []
const endpointTargets = createEndpointTargets()
afterEach(async () => {
  endpointTargets.close()
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

/** A loopback server answering 204, recording each request's headers and body. */
const recording = async () => {
  const got: Array<{ headers: import('node:http').IncomingHttpHeaders; body: string }> = []
  const server = createServer((request, reply) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      got.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') })
      reply.writeHead(204).end()
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, got }
}

describe('one webhook attempt', () => {
  it('sends the host as the URL names it (not the address it is pinned to), the length, the type and the headers given', async () => {
    const target = await recording()
    const body = JSON.stringify({ type: 'user.created', data: { name: 'Zoë' } })
    const given = { 'webhook-id': 'msg_1', 'user-agent': 'Tessera-Webhooks/1' }
    for (const url of [`http://localhost:${target.port}/hook`, `http://127.0.0.1:${target.port}/hook`]) {
      expect((await postWebhook(loopback, url, given, body, endpointTargets)).status).toBe(204)
    }
    expect(target.got.map((one) => one.headers.host)).toEqual([
      `localhost:${target.port}`,
      `127.0.0.1:${target.port}`,
    ])
    for (const { headers: sent, body: arrived } of target.got) {
      expect(arrived).toBe(body)
      expect(sent).toMatchObject({
        ...given,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        connection: 'keep-alive',
      })
      expect(sent.authorization).toBeUndefined()
      expect(sent['transfer-encoding']).toBeUndefined()
    }
  })

  it('sends the credentials a URL holds as basic authorization', async () => {
    const target = await recording()
    const url = `http://hook%20user:p%40ss@127.0.0.1:${target.port}/hook`
    expect((await postWebhook(loopback, url, headers, '{}', endpointTargets)).status).toBe(204)
    expect(target.got[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from('hook user:p@ss').toString('base64')}`,
    )
  })

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
      endpointTargets,
    )
    expect(result).toMatchObject({ ok: false, status: 302, error: null })
    expect(Object.keys(result).sort()).toEqual(['error', 'latencyMs', 'ok', 'status'])
    expect(elsewhere.hits.count).toBe(0)
  })

  it('reads a chunked answer to its end and sends the next attempt on the same connection', async () => {
    const chunked = await serve((reply) => {
      reply.writeHead(200, { 'content-type': 'text/plain' })
      reply.write('thanks, ')
      setTimeout(() => reply.end('got it'), 20)
    })
    let connections = 0
    servers.at(-1)?.on('connection', () => {
      connections += 1
    })
    const url = `http://127.0.0.1:${chunked.port}/hook`
    for (const _ of [1, 2])
      expect(await postWebhook(loopback, url, headers, '{}', endpointTargets)).toMatchObject({ status: 200 })
    expect(chunked.hits.count).toBe(2)
    expect(connections).toBe(1)
  })

  it('gives up on an endpoint that does not answer within the timeout', async () => {
    const silent = await serve(() => undefined)
    const result = await postWebhook(
      loopback,
      `http://127.0.0.1:${silent.port}/`,
      headers,
      '{}',
      endpointTargets,
      300,
    )
    expect(result).toMatchObject({ ok: false, status: null, error: 'no answer within 300 ms' })
    expect(result.latencyMs).toBeLessThan(5_000)
  })

  it('resolves a name and refuses a loopback address unless allowed, before connecting', async () => {
    const target = await serve((reply) => reply.writeHead(204).end())
    const url = `http://localhost:${target.port}/hook`
    const refused = await postWebhook(addressPolicy([]), url, headers, '{}', endpointTargets)
    expect(refused.ok).toBe(false)
    expect(refused.status).toBeNull()
    expect(target.hits.count).toBe(0)
    const allowed = await postWebhook(loopback, url, headers, '{}', endpointTargets)
    expect(allowed).toMatchObject({ ok: true, status: 204 })
    expect(target.hits.count).toBe(1)
  })
})
