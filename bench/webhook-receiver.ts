/// The webhook bench's receiver and endpoints (issue 34): one https server on loopback in the harness
/// (production mode wants https; bench/receiver-tls.ts), answering every delivery with 204 as soon as
/// its body is in (bench/receiver-framing.ts: the receiver's CPU is the bench machine's, not Tessera's),
/// and `BENCH_WEBHOOK_ENDPOINTS` endpoints on it (8 by default), each its own path, as a deployment
/// with a few applications and organizations listening has several. Each receipt is reported as the
/// run-unique markers its body holds (`bench-…`: an update's name, a sign-up's email) and the index
/// of the endpoint it came to; each marker is counted once per endpoint, at its first arrival.

import type { AddressInfo, Socket } from 'node:net'
import { createServer, type TLSSocket } from 'node:tls'
import { BENCH_SERVER_KEY, SERVER_KEY_HEADER } from './api-keys.js'
import { type ReceivedRequest, requestFraming } from './receiver-framing.js'
import { type ReceiverTls, receiverTls } from './receiver-tls.js'
import { JSON_HEADERS } from './shots.js'

const DEFAULT_ENDPOINTS = 8
const MARKER = /bench-[0-9a-z.@-]+/g

export const webhookEndpointCount = (): number => {
  const raw = process.env.BENCH_WEBHOOK_ENDPOINTS?.trim()
  const value = raw ? Number(raw) : DEFAULT_ENDPOINTS
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`BENCH_WEBHOOK_ENDPOINTS must be a whole number >= 1 (got "${raw}")`)
  return value
}

/** A marker's key at one endpoint. */
export const arrivalKey = (marker: string, endpoint: number) => `${endpoint}|${marker}`

export type ArrivalListener = (key: string, at: number) => void

export type Receiver = {
  url(endpoint: number): string
  /** Replaces the listener; each key (marker at an endpoint) is reported at every arrival. */
  listen(listener: ArrivalListener): void
  /** Deliveries received so far, whatever they carried. */
  count(): number
  /** TLS connections accepted so far: with kept-alive connections, far fewer than deliveries. */
  connections(): number
  /** Deliveries of a message (`webhook-id`) an endpoint had received already (at-least-once). */
  repeated(): number
  close(): void
}

const NO_CONTENT = Buffer.from('HTTP/1.1 204 No Content\r\nkeep-alive: timeout=5\r\n\r\n', 'latin1')
/** Idle kept-alive connections close after this, as node:http's server closes them after 5 s. */
const IDLE_MS = 5000

/** `tls`: the certificate to serve (another thread's, when the receiver runs in a worker). */
export const startReceiver = async (
  tls: Pick<ReceiverTls, 'cert' | 'key'> = receiverTls(),
): Promise<Receiver> => {
  let listener: ArrivalListener | null = null
  let count = 0
  let connections = 0
  const seen = new Set<string>()
  let repeated = 0
  const received = ({ path, messageId, body }: ReceivedRequest) => {
    count += 1
    const endpoint = Number(path.split('/').at(-1))
    const message = arrivalKey(messageId, endpoint)
    if (seen.has(message)) repeated += 1
    else seen.add(message)
    if (!listener) return // nobody times arrivals (get-session's windows, webhook-cost)
    const at = performance.now()
    for (const match of body.toString('utf8').matchAll(MARKER)) listener(arrivalKey(match[0], endpoint), at)
  }
  const { cert, key } = tls
  // A TLS server reading HTTP/1.1 itself and answering 204 to each request once its body is in
  // (bench/receiver-framing.ts): no signature checked, nothing logged; that is the tests' part.
  const server = createServer({ cert, key }, (socket: TLSSocket) => {
    connections += 1
    const take = requestFraming((request) => {
      received(request)
      socket.write(NO_CONTENT)
    })
    socket.setTimeout(IDLE_MS, () => socket.destroy())
    socket.on('data', (chunk: Buffer) => {
      try {
        take(chunk)
      } catch {
        socket.destroy()
      }
    })
    socket.on('error', () => socket.destroy())
  })
  // Neither the receiver nor Tessera's kept-alive connections to it may hold the harness open.
  server.on('connection', (socket: Socket) => socket.unref())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  server.unref()
  const { port } = server.address() as AddressInfo
  return {
    url: (endpoint) => `https://127.0.0.1:${port}/hook/${endpoint}`,
    listen: (next) => {
      listener = next
    },
    count: () => count,
    connections: () => connections,
    repeated: () => repeated,
    close: () => server.close(),
  }
}

/** Service-wide endpoints over the server API, one per receiver path; their ids in order. */
export const createEndpoints = async (
  baseUrl: string,
  receiver: Receiver,
  count: number,
  eventTypes: readonly string[],
): Promise<string[]> => {
  const ids: string[] = []
  for (let endpoint = 0; endpoint < count; endpoint += 1) {
    const response = await fetch(`${baseUrl}/api/auth/webhook/create`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, [SERVER_KEY_HEADER]: BENCH_SERVER_KEY },
      body: JSON.stringify({ url: receiver.url(endpoint), eventTypes, description: `bench ${endpoint}` }),
    })
    if (!response.ok) throw new Error(`webhook/create failed: ${response.status} ${await response.text()}`)
    ids.push(((await response.json()) as { endpoint: { id: string } }).endpoint.id)
  }
  return ids
}

/** First arrival of each key; `answered` marks when a marker committed, for each endpoint. */
export const arrivals = (receiver: Receiver, endpoints: number) => {
  const answeredAt = new Map<string, number>()
  const receivedAt = new Map<string, number>()
  receiver.listen((key, at) => {
    if (!receivedAt.has(key)) receivedAt.set(key, at)
  })
  return {
    answeredAt,
    receivedAt,
    answered(marker: string, at: number) {
      for (let endpoint = 0; endpoint < endpoints; endpoint += 1)
        answeredAt.set(arrivalKey(marker, endpoint), at)
    },
  }
}
