/// The delivery of one endpoint: follows the log from the endpoint's own checkpoint
/// (`tessera_webhook_progress`), in log order, one event at a time. An event moves the checkpoint
/// only once the endpoint acknowledged it (2xx) or it is not for this endpoint: at-least-once, and
/// in order per endpoint. A failure leaves the checkpoint before the event and sets when to try
/// again (retry-schedule.ts); every attempt is recorded. A replay request (read model) moves the
/// checkpoint back. Resend requests go first, even while a retry is awaited (endpoint-resends.ts).
///
/// Throughput: the log is read a page at a time, and the attempts are written together with the
/// checkpoint they reach in one statement (every 500 attempts, after a failure, at the run's end, or
/// a second after the first of them at most), so a delivery costs its HTTP request and no round trip
/// to the database of its own; the endpoints woken by one commit save together, in one statement
/// (delivery-writes.ts). At the log's end attempts wait out their second for the next commits rather
/// than being written at once: sign-ups commit a few times a second, and a write for each (a
/// transaction, its WAL flush and index entries) cost more than the deliveries' own statements. A
/// crash between writes sends the unwritten events again, in order, with the same webhook-id.
/// At the log's end a run goes on reading while new commits are announced (`keepGoing`), rather than
/// ending and starting again (lock, endpoint, checkpoint) for each of them.

import type { Kysely } from 'kysely'
import {
  type EventStore,
  formatPosition,
  type GlobalPosition,
  parsePosition,
  type RecordedEvent,
  START,
} from '../../../infra/event-store/event-store.js'
import type { AddressPolicy } from '../../../infra/webhooks/address-guard.js'
import type { Database } from '../../database.js'
import { eventTypesOf } from '../../webhooks/webhook-endpoints.repository.js'
import type { WebhookEndpointRow } from '../../webhooks/webhook-endpoints.table.js'
import type { DeliveryWrites } from './delivery-writes.js'
import { runResends } from './endpoint-resends.js'
import type { EndpointTargets } from './endpoint-targets.js'
import { nextAttempt, type RetrySchedule } from './retry-schedule.js'
import { type Attempting, attemptOnce, messageBody } from './send-attempt.js'
import {
  type EndpointStart,
  saveDeliveries,
  saveProgress,
  type WebhookDeliveriesTable,
  type WebhookProgressRow,
} from './webhook-deliveries.table.js'

export type WorkerDeps = {
  store: EventStore
  policy: AddressPolicy
  endpointTargets: EndpointTargets
  schedule: RetrySchedule
  now: () => Date
  random: () => number
  batchSize: number
  /** Where a run's attempts and checkpoint go, written with other endpoints' (delivery-writes.ts). */
  writes: DeliveryWrites
  /**
   * The endpoint and its checkpoint, read through `q` once the run holds the endpoint's lock (with
   * other endpoints' runs starting at the same moment: gathered-calls.ts).
   */
  starts(q: Kysely<Database>, endpointId: string): Promise<EndpointStart | undefined>
  /** The secrets that sign for the endpoint at `now` (endpoint-secrets.ts). */
  secrets(endpointId: string, now: Date): Promise<string[]>
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
  { endpoint, progress: stored }: EndpointStart,
): Promise<WebhookProgressRow> => {
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
  return body !== null && types.has(body.type) ? body : null
}

/** Attempts made and the checkpoint reached, not yet written. */
type Unsaved = {
  attempts: WebhookDeliveriesTable[]
  progress: WebhookProgressRow
  since: number
  /** When the attempts are written at the latest if the run waits at the log's end (`dueAt`). */
  due: number
}

const FLUSH_ATTEMPTS = 500
const FLUSH_AFTER_MS = 1000

const flush = async (
  db: Kysely<Database>,
  deps: WorkerDeps,
  unsaved: Unsaved,
  saved: { position: string },
) => {
  if (unsaved.attempts.length === 0 && unsaved.progress.position === saved.position) return
  await deps.writes.save(db, unsaved.attempts, unsaved.progress)
  saved.position = unsaved.progress.position
  unsaved.attempts = []
  unsaved.since = performance.now()
}

const flushDue = (unsaved: Unsaved) =>
  unsaved.attempts.length >= FLUSH_ATTEMPTS || performance.now() - unsaved.since >= FLUSH_AFTER_MS

/**
 * After a failed attempt: the next one scheduled (written with the unsaved attempts), or the endpoint
 * given up. The endpoint fails since the first failed attempt was made (`failed.at`), not since its
 * answer was read: the clock may have moved on while the request was in flight (by its timeout in
 * production, by days under a test clock), and that time counts towards the 3 days.
 */
const afterFailure = async (
  db: Kysely<Database>,
  deps: WorkerDeps,
  endpoint: WebhookEndpointRow,
  unsaved: Unsaved,
  failed: WebhookDeliveriesTable,
  position: GlobalPosition,
): Promise<RunOutcome> => {
  const now = deps.now()
  const { progress } = unsaved
  const failures = progress.failures + 1
  const failingSince = progress.failing_since ?? failed.at
  const next = nextAttempt(deps.schedule, failures, failingSince, now, deps.random())
  const stuck = { ...progress, position: formatPosition(position), failures, failing_since: failingSince }
  await saveDeliveries(db, unsaved.attempts, { ...stuck, next_attempt_at: next === 'give-up' ? null : next })
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

export type RunOptions = {
  /** Resend requests may be waiting. */
  resends: boolean
  /**
   * At the log's end: resolves true when more was committed (now, or within a short wait) and this
   * run may read on. Given `withinMs`, waits no longer than that: `later` when it passed with
   * nothing new while the run could still wait on.
   */
  keepGoing?: (withinMs?: number) => Promise<boolean | 'later'>
}

/** Delivers what is readable for one endpoint, until the log's end or a failure. */
export const runEndpoint = async (
  db: Kysely<Database>,
  deps: WorkerDeps,
  endpointId: string,
  options: RunOptions = { resends: true },
): Promise<RunOutcome> => {
  const start = await deps.starts(db, endpointId)
  if (!start?.endpoint.enabled) return IDLE
  const { endpoint } = start
  const progress = await startingProgress(db, start)
  const now = deps.now()
  const state: Attempting = { endpoint, secrets: await deps.secrets(endpointId, now), progress }
  if (options.resends) await runResends(db, deps, state)
  if (progress.next_attempt_at && progress.next_attempt_at > now)
    return { kind: 'retry', at: progress.next_attempt_at }
  return deliverFrom(db, deps, state, options.keepGoing ?? (async () => false))
}

const deliverFrom = async (
  db: Kysely<Database>,
  deps: WorkerDeps,
  state: Attempting,
  keepGoing: (withinMs?: number) => Promise<boolean | 'later'>,
): Promise<RunOutcome> => {
  const types = new Set(eventTypesOf(state.endpoint))
  const saved = { position: state.progress.position }
  const unsaved: Unsaved = { attempts: [], progress: state.progress, since: performance.now(), due: 0 }
  let position = parsePosition(state.progress.position) ?? START
  while (!deps.isStopped()) {
    const page = await deps.store.readAll(position, deps.batchSize)
    for (const event of page) {
      const body = bodyFor(state.endpoint, types, event)
      if (body !== null) {
        if (deps.isStopped()) break
        const attempting = { ...state, progress: unsaved.progress }
        const mark = { attempt: unsaved.progress.failures + 1 }
        const attempt = await attemptOnce(deps, attempting, event, body, mark)
        if (unsaved.attempts.length === 0) {
          unsaved.since = performance.now()
          unsaved.due = deps.writes.dueAt(FLUSH_AFTER_MS)
        }
        unsaved.attempts.push(attempt)
        if (!attempt.ok) return afterFailure(db, deps, state.endpoint, unsaved, attempt, position)
      }
      position = event.position
      unsaved.progress = delivered(unsaved.progress, position)
      if (flushDue(unsaved)) await flush(db, deps, unsaved, saved)
    }
    if (page.length < deps.batchSize) {
      // Unsaved attempts wait for the next commits until the moment set for them (with the other
      // endpoints'), then are saved before the run waits on: /webhook/deliveries shows them meanwhile.
      const due = unsaved.due - performance.now()
      const next = unsaved.attempts.length > 0 && due > 0 ? await keepGoing(due) : 'later'
      if (next === true) continue
      await flush(db, deps, unsaved, saved)
      if (next === false || !(await keepGoing())) break
    }
  }
  await flush(db, deps, unsaved, saved)
  return IDLE
}
