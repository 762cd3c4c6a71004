/// Webhook delivery (issue 34), Tessera only (better-auth 1.7.5 has no webhooks). The receiver and
/// the endpoints are in bench/webhook-receiver.ts (Tessera runs with `webhooks.allowAddresses:
/// ["127.0.0.0/8"]`, bench/features-config.ts); sign-up and get-session with and without them in
/// bench/webhook-overhead.ts. Here `POST /update-user` with a run-unique name at c16 (each answer is
/// the event's commit) while the receiver notes when each name first arrives at each endpoint.
/// Figures: deliveries a second received inside the window (every endpoint's), and the latency from
/// the update's answer to its delivery's receipt at each endpoint, for the updates answered inside
/// the window; a delivery not received within DRAIN_MS after the run counts as wrong.

import { randomBytes } from 'node:crypto'
import {
  type MeasureWindow,
  runScenario,
  type ScenarioResult,
  type ScenarioSpec,
  type Shot,
  type Timing,
} from './load.js'
import type { BenchUser } from './seed.js'
import { isRecord, JSON_HEADERS, parse, rotate } from './shots.js'
import {
  deliveryStats,
  ensureEndpoints,
  spanOf,
  type WebhookSetup,
  waitForDeliveries,
} from './webhook-figures.js'
import { overheadScenarios } from './webhook-overhead.js'
import { arrivals } from './webhook-receiver.js'
import { measureReplay } from './webhook-speed.js'

export {
  deliveryStats,
  seedWebhooks,
  unseededWebhooks,
  WEBHOOK_USERS,
  type WebhookSetup,
} from './webhook-figures.js'

const CONNECTIONS = 16

const updateShots = (users: readonly BenchUser[], answered: (name: string, at: number) => void) => {
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
        if (right) answered(name, performance.now())
        return right
      },
    }
  }
}

const measureDeliveries = async (
  baseUrl: string,
  setup: WebhookSetup,
  spec: { name: string } & Timing,
  window: MeasureWindow,
): Promise<ScenarioResult> => {
  const receiver = await ensureEndpoints(baseUrl, setup)
  const track = arrivals(receiver, setup.endpoints)
  const { span, measure } = spanOf(window)
  const next = updateShots(setup.users, track.answered)
  const result = await runScenario(baseUrl, { ...spec, connections: CONNECTIONS, next }, measure)
  await waitForDeliveries(track.answeredAt, track.receivedAt)
  const deliveries = deliveryStats(track.answeredAt, track.receivedAt, span, spec.durationSeconds)
  // Then the same updates again, all at once, to every endpoint (bench/webhook-speed.ts).
  const replay = await measureReplay(baseUrl, setup.endpointIds, receiver, new Set(track.receivedAt.keys()))
  return {
    ...result,
    byKind: { ...result.byKind, 'webhook delivery': deliveries, 'webhook replay': replay },
  }
}

export const webhookScenarios = (setup: WebhookSetup, timing: Timing): ScenarioSpec[] => {
  const name = `webhooks update-user c16, ${setup.endpoints} endpoints`
  return [
    ...overheadScenarios(setup, timing),
    {
      name,
      ...timing,
      run: (baseUrl, window) => measureDeliveries(baseUrl, setup, { name, ...timing }, window),
    },
  ]
}
