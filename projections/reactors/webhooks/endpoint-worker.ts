/// The delivery of one endpoint: follows the log from the endpoint's own checkpoint
/// (`tessera_webhook_progress`), in log order, one event at a time. An event moves the checkpoint
/// only once the endpoint acknowledged it (2xx) or it is not for this endpoint: at-least-once, and
/// in order per endpoint. A failure leaves the checkpoint before the event and sets when to try
/// again (retry-schedule.ts); every attempt is recorded. A replay request (read model) moves the
/// checkpoint back. Resend requests go first, even while a retry is awaited (endpoint-resends.ts).

import type { Kysely } from 'kysely'
import {
  type EventStore,
  formatPosition,
  type GlobalPosition,
  parsePosition,
  type RecordedEvent,
  START,
} from '../../../infra/event-store/event-store.js'
import type { Database } from '../../database.js'
import { eventTypesOf, findEndpoint } from '../../webhooks/webhook-endpoints.repository.js'
import type { WebhookEndpointRow } from '../../webhooks/webhook-endpoints.table.js'
import type { AddressPolicy } from './address-guard.js'
import { runResends } from './endpoint-resends.js'
import { secretsOf } from './endpoint-secrets.js'
import type { AgentPool } from './post-webhook.js'
import { nextAttempt, type RetrySchedule } from './retry-schedule.js'
import { type Attempting, messageBody, sendAttempt } from './send-attempt.js'
import { readProgress, saveProgress, type WebhookProgressRow } from './webhook-deliveries.table.js'

export type WorkerDeps = {
  store: EventStore
  policy: AddressPolicy
  agents: AgentPool
  schedule: RetrySchedule
  now: () => Date
  random: () => number
  batchSize: number
  /** Called when the retry period is over: disables the endpoint and tells its owner. */
  giveUp(endpoint: WebhookEndpointRow, failingSince: Date): Promise<void>
  isStopped(): boolean
}

/** What one run ended with: nothing more to do now, or a retry due at a time. */
export type RunOutcome = { kind: 'idle' } | { kind: 'retry'; at: Date }

const IDLE: RunOutcome = { kind: 'idle' }

/** The progress to start from, following a replay the read model carries. */
const startingProgress = async (
  db: Kysely<Database>,
  endpoint: WebhookEndpointRow,
): Promise<WebhookProgressRow> => {
  const stored = await readProgress(db, endpoint.id)
  if (stored && stored.replay_generation >= endpoint.replay_generation) return stored
  const fresh: WebhookProgressRow = {
    endpoint_id: endpoint.id,
    position:
      endpoint.replay_generation > 0
        ? (endpoint.replay_after ?? formatPosition(START))
        : endpoint.start_position,
    replay_generation: endpoint.replay_generation,
    failures: 0,
    failing_since: null,
    next_attempt_at: null,
  }
  await saveProgress(db, fresh)
  return fresh
}

/** The body an event makes for this endpoint, or null when the endpoint does not receive it. */
export const bodyFor = (endpoint: WebhookEndpointRow, types: ReadonlySet<string>, event: RecordedEvent) => {
  const body = messageBody(endpoint, event)
  return body !== null && types.has(body.type) ? body.text : null
}

/** After a failed attempt: the next one scheduled, or the endpoint given up. */
const afterFailure = async (
  db: Kysely<Database>,
  deps: WorkerDeps,
  { endpoint, progress }: Attempting,
  position: GlobalPosition,
): Promise<RunOutcome> => {
  const now = deps.now()
  const failures = progress.failures + 1
  const failingSince = progress.failing_since ?? now
  const next = nextAttempt(deps.schedule, failures, failingSince, now, deps.random())
  const stuck = { ...progress, position: formatPosition(position), failures, failing_since: failingSince }
  await saveProgress(db, { ...stuck, next_attempt_at: next === 'give-up' ? null : next })
  if (next !== 'give-up') return { kind: 'retry', at: next }
  await deps.giveUp(endpoint, failingSince)
  return IDLE
}

const delivered = (progress: WebhookProgressRow, position: GlobalPosition): WebhookProgressRow => ({
  ...progress,
  position: formatPosition(position),
  failures: 0,
  failing_since: null,
  next_attempt_at: null,
})

/** Delivers what is readable for one endpoint, until the log's end or a failure. */
export const runEndpoint = async (
  db: Kysely<Database>,
  deps: WorkerDeps,
  endpointId: string,
): Promise<RunOutcome> => {
  const endpoint = await findEndpoint(db, endpointId)
  if (!endpoint?.enabled) return IDLE
  let progress = await startingProgress(db, endpoint)
  const now = deps.now()
  const state: Attempting = { endpoint, secrets: await secretsOf(deps.store, endpointId, now), progress }
  await runResends(db, deps, state)
  if (progress.next_attempt_at && progress.next_attempt_at > now)
    return { kind: 'retry', at: progress.next_attempt_at }
  const types = new Set(eventTypesOf(endpoint))
  let position = parsePosition(progress.position) ?? START
  while (!deps.isStopped()) {
    const batch = await deps.store.readAll(position, deps.batchSize)
    for (const event of batch) {
      const body = bodyFor(endpoint, types, event)
      if (body !== null) {
        if (deps.isStopped()) break
        state.progress = progress
        const sent = await sendAttempt(db, deps, state, event, body, { attempt: progress.failures + 1 })
        if (!sent) return afterFailure(db, deps, state, position)
        progress = delivered(progress, event.position)
        await saveProgress(db, progress)
      }
      position = event.position
    }
    if (formatPosition(position) !== progress.position) {
      progress = delivered(progress, position)
      await saveProgress(db, progress)
    }
    if (batch.length < deps.batchSize) break
  }
  return IDLE
}
