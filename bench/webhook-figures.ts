/// The webhook bench's shared parts (issue 34): its setup, the endpoints made on first use, and the
/// delivery figures from commit times and receipt times (bench/webhooks.ts, bench/webhook-overhead.ts).

import { BENCH_SERVER_KEY, SERVER_KEY_HEADER } from './api-keys.js'
import type { SeedTarget } from './groups.js'
import type { Answer, KindStats, MeasureWindow } from './load.js'
import { kindStats } from './load.js'
import type { BenchUser } from './seed.js'
import { JSON_HEADERS } from './shots.js'
import { createEndpoints, type Receiver, startReceiver, webhookEndpointCount } from './webhook-receiver.js'

const DRAIN_MS = 10_000
export const WEBHOOK_USERS = 16
/** What the bench's endpoints ask for: what sign-up and update-user make. */
const EVENT_TYPES = ['user.created', 'session.created', 'user.updated']

export type WebhookSetup = {
  users: readonly BenchUser[]
  receiver: Receiver | undefined
  endpoints: number
  /** The endpoints' ids once created (by the first scenario that wants them). */
  endpointIds: string[]
  /** Run-unique emails for sign-ups; lines under the server's table. */
  email(label: string, n: number): string
  notes: string[]
}

export const unseededWebhooks = (): WebhookSetup => ({
  users: [],
  receiver: undefined,
  endpoints: webhookEndpointCount(),
  endpointIds: [],
  email: String,
  notes: [],
})

/** The receiver only: the endpoints come later, so the first scenarios run without any. */
export const seedWebhooks = async (target: SeedTarget): Promise<WebhookSetup> => ({
  users: target.users.slice(0, WEBHOOK_USERS),
  receiver: await startReceiver(),
  endpoints: webhookEndpointCount(),
  endpointIds: [],
  email: target.email,
  notes: target.notes,
})

/** The endpoints, created on the first call. */
export const ensureEndpoints = async (baseUrl: string, setup: WebhookSetup): Promise<Receiver> => {
  const { receiver } = setup
  if (!receiver) throw new Error('webhooks: no receiver')
  if (setup.endpointIds.length === 0)
    setup.endpointIds.push(...(await createEndpoints(baseUrl, receiver, setup.endpoints, EVENT_TYPES)))
  return receiver
}

/** Deletes every endpoint the bench made: what follows runs as if none had ever existed. */
export const removeEndpoints = async (baseUrl: string, setup: WebhookSetup): Promise<void> => {
  for (const endpointId of setup.endpointIds.splice(0)) {
    const response = await fetch(`${baseUrl}/api/auth/webhook/delete`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, [SERVER_KEY_HEADER]: BENCH_SERVER_KEY },
      body: JSON.stringify({ endpointId }),
    })
    if (!response.ok) throw new Error(`webhook/delete failed: ${response.status} ${await response.text()}`)
  }
}

export const waitForDeliveries = async (
  answeredAt: ReadonlyMap<string, number>,
  receivedAt: ReadonlyMap<string, number>,
) => {
  const deadline = Date.now() + DRAIN_MS
  while (Date.now() < deadline && [...answeredAt.keys()].some((key) => !receivedAt.has(key)))
    await new Promise((resolve) => setTimeout(resolve, 100))
}

/** Deliveries received inside the window, latencies of commits answered inside it. */
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

/** A window's bounds as the closed loop reports them, also kept for the delivery figures. */
export const spanOf = (window: MeasureWindow) => {
  const span = { from: Number.POSITIVE_INFINITY, to: Number.POSITIVE_INFINITY }
  const measure: MeasureWindow = {
    onStart: () => {
      span.from = performance.now()
      window.onStart()
    },
    onEnd: () => {
      span.to = performance.now()
      window.onEnd()
    },
  }
  return { span, measure }
}
