/// The deliveries' own connections against loopback servers that answer byte by byte as each test
/// needs: kept alive and reused, a request written in one piece, a dropped kept connection sent on
/// anew once, one bound for the whole request, and a certificate that is not trusted refused.

import type { LookupFunction, Server, Socket } from 'node:net'
import { createServer as createTcpServer } from 'node:net'
import { createServer as createTlsServer } from 'node:tls'
import { afterEach, describe, expect, it } from 'vitest'
import { receiverTls } from '../../../bench/receiver-tls.js'
import { type Connections, type ConnectionTarget, createConnections } from './webhook-connections.js'

const servers: Server[] = []
const opened: Connections[] = []
afterEach(async () => {
  for (const connections of opened.splice(0)) connections.close()
  await Promise.all(
    servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  )
})

const connections = (idleMs?: number) => {
  const made = createConnections(idleMs === undefined ? {} : { idleMs })
  opened.push(made)
  return made
}

type Seen = { connections: number; requests: string[]; chunks: number; closed: number }

/** A server calling `onRequest` with each request (whole, as chunks arrive) and its connection's count. */
const serve = async (onRequest: (socket: Socket, nth: number) => void, secure = false) => {
  const seen: Seen = { connections: 0, requests: [], chunks: 0, closed: 0 }
  const handle = (socket: Socket) => {
    seen.connections += 1
    let nth = 0
    socket.on('data', (chunk: Buffer) => {
      seen.chunks += 1
      seen.requests.push(chunk.toString('utf8'))
      nth += 1
      onRequest(socket, nth)
    })
    socket.on('close', () => {
      seen.closed += 1
    })
    socket.on('error', () => socket.destroy())
  }
  const { cert, key } = receiverTls()
  const server = secure ? createTlsServer({ cert, key }, handle) : createTcpServer(handle)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as { port: number }).port, seen }
}

const pinned: LookupFunction = (_host, options, callback) => {
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }])
  else callback(null, '127.0.0.1', 4)
}

const target = (port: number, secure = false): ConnectionTarget => ({
  secure,
  host: '127.0.0.1',
  port,
  servername: '',
  lookup: pinned,
  key: `${secure ? 'https' : 'http'}|127.0.0.1|${port}`,
})

const request = (body: string) =>
  `POST /hook HTTP/1.1\r\nhost: x\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
const NO_CONTENT = 'HTTP/1.1 204 No Content\r\n\r\n'

describe('the deliveries’ connections', () => {
  it('write each request in one piece and carry the next one on the same connection', async () => {
    const server = await serve((socket) => socket.write(NO_CONTENT))
    const to = connections()
    expect(await to.send(target(server.port), request('{"n":1}'), 5000)).toBe(204)
    expect(await to.send(target(server.port), request('{"n":2}'), 5000)).toBe(204)
    expect(server.seen.connections).toBe(1)
    expect(server.seen.chunks).toBe(2)
    expect(server.seen.requests[0]).toMatch(/^POST \/hook HTTP\/1\.1\r\n.*\r\n\r\n\{"n":1\}$/s)
    expect(server.seen.requests[1]).toMatch(/\r\n\r\n\{"n":2\}$/)
  })

  it('send a request again once, on a new connection, when a kept connection closes before answering', async () => {
    const server = await serve((socket, nth) => (nth === 1 ? socket.write(NO_CONTENT) : socket.destroy()))
    const to = connections()
    expect(await to.send(target(server.port), request('{}'), 5000)).toBe(204)
    expect(await to.send(target(server.port), request('{}'), 5000)).toBe(204)
    expect(server.seen.connections).toBe(2)
    expect(server.seen.requests).toHaveLength(3)
  })

  it('do not send again on a new connection that closed before answering', async () => {
    const server = await serve((socket) => socket.destroy())
    await expect(connections().send(target(server.port), request('{}'), 5000)).rejects.toThrow()
    expect(server.seen.requests).toHaveLength(1)
  })

  it('bound the whole request, an answer whose body trickles in included', async () => {
    const server = await serve((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n')
      const drip = setInterval(() => (socket.destroyed ? clearInterval(drip) : socket.write('x')), 20)
    })
    const started = performance.now()
    await expect(connections().send(target(server.port), request('{}'), 300)).rejects.toThrow(
      'no answer within 300 ms',
    )
    expect(performance.now() - started).toBeLessThan(1500)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(server.seen.closed).toBe(1) // the connection is dropped, not kept half read
  })

  it('refuse an endpoint whose certificate is not trusted, sending it nothing', async () => {
    const server = await serve((socket) => socket.write(NO_CONTENT), true)
    await expect(connections().send(target(server.port, true), request('{}'), 5000)).rejects.toThrow(
      /self[- ]signed certificate/,
    )
    expect(server.seen.requests).toHaveLength(0)
  })

  it('close a connection left idle', async () => {
    const server = await serve((socket) => socket.write(NO_CONTENT))
    expect(await connections(50).send(target(server.port), request('{}'), 5000)).toBe(204)
    await new Promise((resolve) => setTimeout(resolve, 250))
    expect(server.seen.closed).toBe(1)
  })
})
