/// The webhook reactor: one worker per enabled endpoint (endpoint-worker.ts), each with its own
/// checkpoint, woken when the read models apply new events. Endpoints come and go with the read
/// model; an endpoint's worker runs one batch at a time and, after a failure, waits for its retry.
///
/// - One sender per endpoint: on PostgreSQL a run holds an advisory lock named after the endpoint,
///   all endpoints' on one shared session (endpoint-locks.ts); embedded PGlite serves one process.
/// - Endpoints are delivered in parallel, each in its own log order; their reads of the same page of
///   the log between two commits are one query (shared-log-reads.ts), and their attempts and
///   checkpoints saved within a few milliseconds of each other one statement (delivery-writes.ts);
///   the page the read models just applied is read by none of them (handed over by the projector).
///   The runs one commit starts (each run follows the log for up to RUN_FOLLOWS_MS, so they end and
///   start again together) take their locks, read their endpoints and checkpoints and let go of
///   their locks in one statement each (gathered-calls.ts): 3 statements for every endpoint, not 4
///   for each.
/// - The clock (`now`) and randomness are injected: the retry schedule is tested without waiting,
///   and `wake()` after moving the clock runs a retry that has come due.

import type { Kysely } from 'kysely'
import type { EventStore, RecordedEvent } from '../../../infra/event-store/event-store.js'
import type { AddressPolicy } from '../../../infra/webhooks/address-guard.js'
import type { Database } from '../../database.js'
import type { AppliedListener } from '../../runner/projector-types.js'
import { allEndpoints } from '../../webhooks/webhook-endpoints.repository.js'
import type { WebhookEndpointRow } from '../../webhooks/webhook-endpoints.table.js'
import { gatheringWrites } from './delivery-writes.js'
import { inProcessLocks, sessionLocks } from './endpoint-locks.js'
import { createSecretsCache, KEYS_TTL_MS } from './endpoint-secrets.js'
import { createEndpointTargets } from './endpoint-targets.js'
import { type RunOutcome, runEndpoint, type WorkerDeps } from './endpoint-worker.js'
import { gatheredCalls } from './gathered-calls.js'
import { DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from './retry-schedule.js'
import { sharingReads } from './shared-log-reads.js'
import { purgeOldAttempts, readEndpointStarts } from './webhook-deliveries.table.js'

export type WebhookReactorLogger = {
  warn(obj: object, msg: string): void
  info(obj: object, msg: string): void
}

export type WebhookReactorOptions = {
  db: Kysely<Database>
  store: EventStore
  policy: AddressPolicy
  lock: 'advisory' | 'in-process'
  onReadModelsAdvance: (listener: AppliedListener) => () => void
  /** Tells the endpoint's owner it was disabled (a mail); failures are logged, not retried. */
  notifyDisabled?: (endpoint: WebhookEndpointRow, failingSince: Date) => Promise<void>
  disable: (endpointId: string, failingSince: Date) => Promise<boolean>
  schedule?: RetrySchedule
  now?: () => Date
  random?: () => number
  batchSize?: number
  pollIntervalMs?: number
  logger: WebhookReactorLogger
}

export type WebhookReactor = {
  start(): Promise<void>
  stop(): Promise<void>
  /** Looks at the endpoints and the log now; runs retries that are due by the clock. */
  wake(): void
  /** Resolves when every endpoint's worker has finished a run that started after this call. */
  settle(): Promise<void>
}

type Worker = {
  running: Promise<void> | null
  again: boolean
  timer: NodeJS.Timeout | null
  retryAt: Date | null
  /** Resend requests may be waiting (at start, and after a `webhook.resend-requested`). */
  resends: boolean
  /** The endpoint's own events were applied (a change, a rotation, a replay) since its run began. */
  changed: boolean
  /** Ends the wait of a run lingering at the log's end (a commit, a change, a stop). */
  nudge: (() => void) | null
}

const newWorker = (): Worker => ({
  running: null,
  again: false,
  timer: null,
  retryAt: null,
  resends: true,
  changed: false,
  nudge: null,
})

/**
 * How long one run may go on following new commits: the span the secrets cache trusts what it read,
 * so one run reads them once. Past it the next run takes its lock and reads the endpoint, its
 * checkpoint and its secrets afresh; a change to the endpoint applied here ends a run at once, and
 * so does the clock moving on past it. With 5 s, 8 endpoints under steady sign-ups made some 2 statements a second of restarts (lock,
 * unlock, endpoint, secrets; issue 34). A rotated secret's overlap may end while a run signs with it:
 * it goes on signing beside the new one for the rest of that run.
 */
const RUN_FOLLOWS_MS = KEYS_TTL_MS

/**
 * How long a run at the log's end waits for the next commit (within its RUN_FOLLOWS_MS): a new run
 * costs its lock and reads of the endpoint and checkpoint, and sign-ups come in bursts up to seconds
 * apart (with a 250 ms wait, some 2.5 new runs per sign-up over 8 endpoints). Waiting costs a timer;
 * a change to the endpoint, a resend or a stop ends it at once. An endpoint nobody writes for lets go
 * of its lock (and the shared connection) this long after its last commit.
 */
const LINGER_MS = 5000

const lingerFor = (startedAt: number) =>
  Math.min(LINGER_MS, Math.max(0, RUN_FOLLOWS_MS - (performance.now() - startedAt)))

/** The runs one commit starts read their endpoints and checkpoints together (a millisecond or two apart). */
const START_GATHER_MS = 3

const PURGE_EVERY_MS = 3600_000

/** Endpoints asked to resend a message: their workers run now, even while awaiting a retry. */
const resentTo = (events: readonly RecordedEvent[]): Set<string> =>
  new Set(
    events
      .filter((event) => event.type === 'webhook.resend-requested')
      .map((event) => (event.data as { endpointId: string }).endpointId),
  )

/** Endpoints whose own events (a rotation, a change) were just applied. */
const changedEndpoints = (events: readonly RecordedEvent[]): string[] =>
  events
    .filter((event) => event.type.startsWith('webhook.'))
    .map((event) => (event.data as { endpointId: string }).endpointId)

export const createWebhookReactor = (options: WebhookReactorOptions): WebhookReactor => {
  const { db, logger } = options
  const now = options.now ?? (() => new Date())
  const workers = new Map<string, Worker>()
  const endpointTargets = createEndpointTargets()
  const keys = createSecretsCache(options.store)
  const locks = options.lock === 'in-process' ? inProcessLocks(db) : sessionLocks(db)
  const reads = sharingReads(options.store)
  let stopped = true
  let unsubscribe: (() => void) | null = null
  let poll: NodeJS.Timeout | null = null
  let lastPurge = 0
  const deps: WorkerDeps = {
    store: reads.store,
    policy: options.policy,
    endpointTargets,
    schedule: options.schedule ?? DEFAULT_RETRY_SCHEDULE,
    now,
    random: options.random ?? Math.random,
    batchSize: options.batchSize ?? 500,
    writes: gatheringWrites(),
    starts: gatheredCalls(readEndpointStarts, START_GATHER_MS),
    secrets: keys.secrets,
    isStopped: () => stopped,
    giveUp: async (endpoint, failingSince) => {
      if (!(await options.disable(endpoint.id, failingSince))) return
      logger.warn(
        { endpointId: endpoint.id, failingSince },
        'webhook endpoint disabled: deliveries failed for 3 days',
      )
      await options
        .notifyDisabled?.(endpoint, failingSince)
        .catch((error: unknown) =>
          logger.warn(
            { err: error, endpointId: endpoint.id },
            'telling the owner of a disabled webhook failed',
          ),
        )
    },
  }

  /** At the log's end, whether the run reads on: new commits, and nothing the run must start over for. */
  const follows = (worker: Worker) => {
    // Both clocks: the injected one decides which secrets sign (a test moves it by days).
    const started = { real: performance.now(), clock: now().getTime() }
    const over = () =>
      performance.now() - started.real > RUN_FOLLOWS_MS || now().getTime() - started.clock > RUN_FOLLOWS_MS
    return async (withinMs = Number.POSITIVE_INFINITY): Promise<boolean | 'later'> => {
      if (readsOn(worker, over())) return true
      if (!mayLinger(worker, over())) return false
      const waitMs = Math.min(lingerFor(started.real), withinMs)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, waitMs)
        function done() {
          clearTimeout(timer)
          worker.nudge = null
          resolve()
        }
        worker.nudge = done
      })
      if (readsOn(worker, over())) return true
      return waitMs === withinMs && mayLinger(worker, over()) ? 'later' : false
    }
  }

  const mayLinger = (worker: Worker, over: boolean) => !(worker.resends || worker.changed || stopped || over)

  const readsOn = (worker: Worker, over: boolean) => {
    if (!worker.again || worker.resends || worker.changed || stopped || over) return false
    worker.again = false
    return true
  }

  const runOnce = async (endpointId: string, worker: Worker): Promise<RunOutcome | 'busy'> => {
    // Taken before the run: a request applied while it runs sets it again for the next one.
    const run = { resends: worker.resends, keepGoing: follows(worker) }
    worker.resends = false
    worker.changed = false
    try {
      const outcome = await locks.run(endpointId, (q) => runEndpoint(q, deps, endpointId, run))
      if (outcome === 'busy') worker.resends ||= run.resends
      return outcome
    } catch (error) {
      worker.resends ||= run.resends
      throw error
    }
  }

  const pump = (endpointId: string, worker: Worker): Promise<void> => {
    if (worker.running) {
      worker.again = true
      worker.nudge?.()
      return worker.running
    }
    worker.running = (async () => {
      let outcome: RunOutcome | 'busy' = { kind: 'idle' }
      try {
        do {
          worker.again = false
          outcome = await runOnce(endpointId, worker)
        } while (worker.again && outcome !== 'busy' && outcome.kind === 'idle' && !stopped)
      } catch (error) {
        logger.warn({ err: error, endpointId }, 'webhook delivery run failed; trying again shortly')
        outcome = { kind: 'retry', at: new Date(now().getTime() + 1000) }
      }
      worker.running = null
      worker.retryAt = outcome !== 'busy' && outcome.kind === 'retry' ? outcome.at : null
      // A worker dropped while its run was in flight (its endpoint disabled, maybe enabled again
      // with a new worker since) arms nothing: on PGlite no lock would stop two runs at once.
      const current = workers.get(endpointId) === worker
      if (worker.retryAt && !stopped && current) scheduleRetry(endpointId, worker, worker.retryAt)
    })()
    return worker.running
  }

  const scheduleRetry = (endpointId: string, worker: Worker, at: Date) => {
    if (worker.timer) clearTimeout(worker.timer)
    worker.timer = setTimeout(
      () => void pump(endpointId, worker),
      Math.max(0, at.getTime() - now().getTime()),
    )
    worker.timer.unref()
  }

  const wakeWorker = (endpointId: string, worker: Worker) => {
    // While waiting for a retry, new events do not cut the wait short: the endpoint is what we wait for.
    if (worker.retryAt && worker.retryAt > now()) return
    void pump(endpointId, worker)
  }

  /** Workers for the endpoints that exist and are enabled; the others' workers go. */
  const reconcile = async () => {
    const endpoints = (await allEndpoints(db)).filter((endpoint) => endpoint.enabled)
    const ids = new Set(endpoints.map((endpoint) => endpoint.id))
    for (const [id, worker] of workers)
      if (!ids.has(id)) {
        if (worker.timer) clearTimeout(worker.timer)
        workers.delete(id)
      }
    for (const id of ids) if (!workers.has(id)) workers.set(id, newWorker())
  }

  const wakeAll = async (rescan: boolean) => {
    if (stopped) return
    try {
      if (rescan) await reconcile()
      for (const [id, worker] of workers) wakeWorker(id, worker)
      await purgeNow()
    } catch (error) {
      logger.warn({ err: error }, 'webhook reactor could not read its endpoints')
    }
  }

  const purgeNow = async () => {
    if (now().getTime() - lastPurge < PURGE_EVERY_MS) return
    lastPurge = now().getTime()
    await purgeOldAttempts(db, now())
  }

  return {
    async start() {
      stopped = false
      unsubscribe = options.onReadModelsAdvance((events, from) => {
        reads.advanced(events, from)
        const changed = changedEndpoints(events)
        for (const id of changed) {
          keys.forget(id)
          const worker = workers.get(id)
          if (!worker) continue
          worker.changed = true
          worker.nudge?.() // a waiting run ends now; the next one reads the endpoint afresh
        }
        for (const id of resentTo(events)) {
          const worker = workers.get(id)
          if (!worker) continue
          worker.resends = true
          void pump(id, worker)
        }
        void wakeAll(changed.length > 0)
      })
      poll = setInterval(() => void wakeAll(true), options.pollIntervalMs ?? 5000)
      poll.unref()
      void wakeAll(true)
    },
    async stop() {
      stopped = true
      unsubscribe?.()
      if (poll) clearInterval(poll)
      for (const worker of workers.values()) {
        if (worker.timer) clearTimeout(worker.timer)
        worker.nudge?.()
      }
      await Promise.all([...workers.values()].map((worker) => worker.running))
      endpointTargets.close()
    },
    wake: () => void wakeAll(true),
    async settle() {
      await reconcile()
      await Promise.all([...workers].map(([id, worker]) => pump(id, worker)))
    },
  }
}
