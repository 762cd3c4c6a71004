/// A real HTTP receiver on loopback for webhook tests: records every request (headers and body)
/// and answers with the status `answer` returns (200 unless told otherwise), or resolves to: a test
/// may hold an answer while it changes the endpoint.

import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Received = {
  headers: IncomingHttpHeaders
  body: string
  json: { id: string; type: string; data: Record<string, unknown> }
}

export type Receiver = {
  url: string
  received: Received[]
  /** The status the next request gets; called with the request about to be answered. */
  answer: (request: Received) => number | Promise<number>
  /** Resolves once `predicate` holds for what was received (polls every 20 ms, up to `ms`). */
  until(predicate: (received: Received[]) => boolean, ms?: number): Promise<Received[]>
  close(): Promise<void>
}

export const startReceiver = async (path = '/hook'): Promise<Receiver> => {
  const receiver = {
    received: [] as Received[],
    answer: (_request: Received) => 200,
  } as Receiver
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const received = { headers: request.headers, body, json: JSON.parse(body) }
      const status = await receiver.answer(received)
      receiver.received.push(received)
      response.writeHead(status, { 'content-type': 'text/plain' }).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`
  receiver.until = async (predicate, ms = 20_000) => {
    const deadline = Date.now() + ms
    while (!predicate(receiver.received)) {
      if (Date.now() > deadline)
        throw new Error(`receiver: condition not met in ${ms} ms (${receiver.received.length} received)`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    return receiver.received
  }
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return receiver
}
