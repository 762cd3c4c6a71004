/// Webhook delivery (issue 34), Tessera only (better-auth 1.7.5 has no webhooks): an https receiver
/// on loopback in the harness (production mode wants https; bench/receiver-tls.ts) (Tessera runs with `webhooks.allowAddresses: ["127.0.0.0/8"]`,
/// bench/features-config.ts), one service-wide endpoint for `user.updated` created over the server
/// API, then `POST /update-user` with a run-unique name at c16 (each answer is the event's commit)
/// while the receiver notes when each name first arrives. Figures: deliveries a second received
/// inside the window, and the latency from the update's answer to its delivery's receipt, for the
/// updates answered inside the window; an update not delivered within DRAIN_MS after the run counts
/// as wrong.

import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import { BENCH_SERVER_KEY, SERVER_KEY_HEADER } from './api-keys.js'
import {
  type Answer,
  type KindStats,
  kindStats,
  type MeasureWindow,
  runScenario,
  type ScenarioResult,
  type ScenarioSpec,
  type Shot,
  type Timing,
} from './load.js'
import { receiverTls } from './receiver-tls.js'
import type { BenchUser } from './seed.js'
import { isRecord, JSON_HEADERS, parse, rotate } from './shots.js'
import { measureReplay } from './webhook-speed.js'

const DRAIN_MS = 10_000
const CONNECTIONS = 16
export const WEBHOOK_USERS = 16

export type WebhookSetup = {
  users: readonly BenchUser[]
  receiver: Receiver | undefined
  endpointId?: string
}

type Receiver = { url: string; onName(listener: (name: string, at: number) => void): void; server: Server }

/** Answers every delivery at once with 204; hands each name it finds in a body to the listener. */
const startReceiver = async (): Promise<Receiver> => {
  let listener: (name: string, at: number) => void = () => {}
  const { cert, key } = receiverTls()
  const server = createServer({ cert, key }, (request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const at = performance.now()
      for (const match of Buffer.concat(chunks)
        .toString('utf8')
        .matchAll(/bench-upd-[0-9a-f]+-\d+/g))
        listener(match[0], at)
      response.writeHead(204).end()
    })
  })
  // Neither the receiver nor Tessera's kept-alive connections to it may hold the harness open.
  server.on('connection', (socket: Socket) => socket.unref())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  server.unref()
  const { port } = server.address() as AddressInfo
  return {
    url: `https://127.0.0.1:${port}/hook`,
    onName: (next) => {
      listener = next
    },
    server,
  }
}

export const seedWebhooks = async (baseUrl: string, users: readonly BenchUser[]): Promise<WebhookSetup> => {
  const receiver = await startReceiver()
  const response = await fetch(`${baseUrl}/api/auth/webhook/create`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, [SERVER_KEY_HEADER]: BENCH_SERVER_KEY },
    body: JSON.stringify({ url: receiver.url, eventTypes: ['user.updated'], description: 'bench' }),
  })
  if (!response.ok) {
    receiver.server.close()
    throw new Error(`webhook/create failed: ${response.status} ${await response.text()}`)
  }
  const { endpoint } = (await response.json()) as { endpoint: { id: string } }
  return { users: users.slice(0, WEBHOOK_USERS), receiver, endpointId: endpoint.id }
}

const updateShots = (users: readonly BenchUser[], answeredAt: Map<string, number>) => {
  const nextUser = rotate(users)
  const run = randomBytes(4).toString('hex')
  let n = 0
  return (): Shot => {
    const name = `bench-upd-${run}-${n++}`
    return {
      kind: 'update-user',
      method: 'POST',
      path: '/api/auth/update-user',
      headers: { ...JSON_HEADERS, cookie: nextUser().cookie },
      body: JSON.stringify({ name }),
      isCorrect: (body) => {
        const value = parse(body)
        const right = isRecord(value) && value.status === true
        if (right) answeredAt.set(name, performance.now())
        return right
      },
    }
  }
}

const waitForDeliveries = async (answeredAt: Map<string, number>, receivedAt: Map<string, number>) => {
  const deadline = Date.now() + DRAIN_MS
  while (Date.now() < deadline && [...answeredAt.keys()].some((name) => !receivedAt.has(name)))
    await new Promise((resolve) => setTimeout(resolve, 100))
}

/** Deliveries received inside the window, latencies of updates answered inside it. */
export const deliveryStats = (
  answeredAt: ReadonlyMap<string, number>,
  receivedAt: ReadonlyMap<string, number>,
  window: { from: number; to: number },
  seconds: number,
): KindStats => {
  const inWindow = (at: number) => at >= window.from && at < window.to
  const answers: Answer[] = []
  let missing = 0
  for (const [name, answered] of answeredAt) {
    const received = receivedAt.get(name)
    if (received === undefined) {
      if (inWindow(answered)) missing += 1
      continue
    }
    answers.push({
      kind: 'webhook delivery',
      status: 204,
      correct: true,
      sentAt: answered,
      doneAt: received,
      ms: received - answered,
    })
  }
  const latencies = answers.filter((a) => inWindow(a.sentAt)).map((a) => a.ms)
  const completed = answers.filter((a) => inWindow(a.doneAt))
  const failure = missing > 0 ? `${missing} updates answered in the window never delivered` : undefined
  return { ...kindStats(latencies, completed, seconds, failure), incorrect: missing }
}

const measureDeliveries = async (
  baseUrl: string,
  setup: WebhookSetup,
  spec: { name: string } & Timing,
  window: MeasureWindow,
): Promise<ScenarioResult> => {
  if (!setup.receiver) throw new Error('webhooks: no receiver')
  const answeredAt = new Map<string, number>()
  const receivedAt = new Map<string, number>()
  setup.receiver.onName((name, at) => {
    if (!receivedAt.has(name)) receivedAt.set(name, at)
  })
  const span = { from: Number.POSITIVE_INFINITY, to: Number.POSITIVE_INFINITY }
  const result = await runScenario(
    baseUrl,
    { ...spec, connections: CONNECTIONS, next: updateShots(setup.users, answeredAt) },
    {
      onStart: () => {
        span.from = performance.now()
        window.onStart()
      },
      onEnd: () => {
        span.to = performance.now()
        window.onEnd()
      },
    },
  )
  await waitForDeliveries(answeredAt, receivedAt)
  const deliveries = deliveryStats(answeredAt, receivedAt, span, spec.durationSeconds)
  // Then the same updates again, all at once (bench/webhook-speed.ts).
  const replay = setup.endpointId
    ? await measureReplay(baseUrl, setup.endpointId, setup.receiver.onName, new Set(receivedAt.keys()))
    : undefined
  return {
    ...result,
    byKind: {
      ...result.byKind,
      'webhook delivery': deliveries,
      ...(replay ? { 'webhook replay': replay } : {}),
    },
  }
}

export const webhookScenarios = (setup: WebhookSetup, timing: Timing): ScenarioSpec[] => {
  const name = 'webhooks update-user c16'
  return [
    {
      name,
      ...timing,
      run: (baseUrl, window) => measureDeliveries(baseUrl, setup, { name, ...timing }, window),
    },
  ]
}
