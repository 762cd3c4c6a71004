/// The mail reactor: follows the event log with its own checkpoint and sends the mail each mail
/// event asks for, after the event has committed.
///
/// Guarantees:
/// - Never lost: the checkpoint moves past a mail event only once its mail was accepted by the
///   transport, deliberately skipped, or recorded as a dead letter. A retryable failure leaves the
///   checkpoint where it is and the same event is tried again with exponential backoff.
/// - At most one resend: the checkpoint is saved after every mail, so a crash between a send and
///   its save repeats that one mail, with the same idempotency key (the event id), which an HTTP
///   provider deduplicates and an SMTP server sees with the same Message-ID.
/// - One sender: with `lock: 'advisory'` (PostgreSQL) a batch runs under a session advisory lock on
///   a connection of its own, so two processes never send the same mail; the other one simply
///   finds the lock taken and tries later. Embedded PGlite serves one process, which needs no
///   cross-process lock, and pinning its only connection during a send would stall every request.
/// - Names come from the users read model, so an event is handled only once the projector has
///   applied it (`readModelsGroup`); otherwise a fresh user would look deleted.

import { EventEmitter } from 'node:events'
import type { Kysely } from 'kysely'
import {
  comparePositions,
  type EventStore,
  type GlobalPosition,
  isOpened,
  type LogEntry,
  type RecordedEvent,
  START,
} from '../../../infra/event-store/event-store.js'
import { MailDeliveryError, type MailTransport } from '../../../infra/mail/mail.js'
import type { Database } from '../../database.js'
import { readCheckpoint, readCheckpoints, writeCheckpoint } from '../../runner/checkpoint-store.js'
import { withAdvisoryLock } from './advisory-lock.js'
import type { MailLinkSettings } from './compose-mail.js'
import { type DeliveryDependencies, deliverMail, type MailReactorLogger } from './deliver-mail.js'
import { deliverInvitationMail, isInvitationMailEventType } from './invitation-mail.js'
import { isMailEventType } from './mail-events.js'
import { deliverPasswordlessMail, isPasswordlessMailEventType } from './passwordless-mail.js'
import { deliverSecurityNotice, isSecurityNoticeEventType } from './security-notice-mail.js'
import { deliverTwoFactorMail, isTwoFactorMailEventType } from './two-factor-mail.js'

export type { MailReactorLogger } from './deliver-mail.js'

export type MailReactorOptions = {
  db: Kysely<Database>
  store: EventStore
  transport: MailTransport
  links: MailLinkSettings
  /** `advisory` on PostgreSQL (several processes may run a reactor), `in-process` on PGlite. */
  lock: 'advisory' | 'in-process'
  /** Checkpoint name. */
  name?: string
  /** Checkpoint of the projector whose read models the reactor reads; null: do not wait for one. */
  readModelsGroup?: string | null
  /**
   * Tells the reactor which events the read models just applied (`projector.onApplied`). When
   * given, it is the reactor's wake-up instead of commits: an event is handled only after the
   * projector applied it anyway, and batches without a mail event need no run at all.
   */
  onReadModelsAdvance?: (listener: (events: readonly RecordedEvent[]) => void) => () => void
  batchSize?: number
  /** Safety net besides commit notifications. */
  pollIntervalMs?: number
  /** Backoff after a failed attempt: initial delay, doubled per failure, capped. */
  retry?: { initialDelayMs?: number; maxDelayMs?: number }
  logger?: MailReactorLogger
  now?: () => Date
}

export type MailReactor = {
  start(): Promise<void>
  /** Stops after the mail being sent, if any; the checkpoint keeps everything not yet handled. */
  stop(): Promise<void>
  /**
   * Resolves once every event readable now (committed and applied to the read models) is handled,
   * waiting through retries as long as it takes. For tests; needs `start()` first.
   */
  drain(): Promise<void>
  /** Look at the log now (new events may be there). */
  wake(): void
}

type Outcome = 'idle' | 'busy' | 'failed'

const silentLogger: MailReactorLogger = { info: () => {}, warn: () => {}, error: () => {} }

export const createMailReactor = (options: MailReactorOptions): MailReactor => {
  const { db, store, lock, name = 'mail-reactor', readModelsGroup = 'read-models', batchSize = 100 } = options
  const pollIntervalMs = options.pollIntervalMs ?? 1000
  const initialDelayMs = options.retry?.initialDelayMs ?? 1000
  const maxDelayMs = options.retry?.maxDelayMs ?? 60_000
  const logger = options.logger ?? silentLogger
  const deps: DeliveryDependencies = {
    transport: options.transport,
    links: options.links,
    logger,
    now: options.now ?? (() => new Date()),
  }
  const settled = new EventEmitter()
  settled.setMaxListeners(0)
  let running: Promise<Outcome> | null = null
  let again = false
  let stopped = true
  let backingOff = false
  let failures = 0
  let timer: NodeJS.Timeout | null = null
  const unsubscribers: (() => void)[] = []

  /** Handles every readable event, mail by mail; throws (checkpoint kept) on the first failure. */
  const handleReadable = async (q: Kysely<Database>): Promise<'idle'> => {
    const stored = await readCheckpoints(q, readModelsGroup === null ? [name] : [name, readModelsGroup])
    let handled = stored.get(name) ?? START
    const horizon = readModelsGroup === null ? null : (stored.get(readModelsGroup) ?? START)
    while (!stopped) {
      // Only the events that may cause a mail are opened: the rest of the log is passed over unread.
      const read = await store.readAllOpening(handled, batchSize, causesMail)
      const batch = read.filter((event) => withinHorizon(event, horizon))
      const last = batch.at(-1)
      if (!last) return 'idle'
      for (const event of batch) {
        if (!isOpened(event)) continue
        if (isSecurityNoticeEventType(event.type)) {
          if (stopped) return 'idle'
          await deliverSecurityNotice(q, store, event, deps)
          await writeCheckpoint(q, name, event.position)
          handled = event.position
          continue
        }
        if (isTwoFactorMailEventType(event.type)) {
          if (stopped) return 'idle'
          await deliverTwoFactorMail(q, event, deps)
          await writeCheckpoint(q, name, event.position)
          handled = event.position
          continue
        }
        if (isInvitationMailEventType(event.type)) {
          if (stopped) return 'idle'
          await deliverInvitationMail(q, event, deps)
          await writeCheckpoint(q, name, event.position)
          handled = event.position
          continue
        }
        if (isPasswordlessMailEventType(event.type)) {
          if (stopped) return 'idle'
          await deliverPasswordlessMail(q, event, deps)
          await writeCheckpoint(q, name, event.position)
          handled = event.position
          continue
        }
        if (!isMailEventType(event.type)) continue
        if (stopped) return 'idle'
        await deliverMail(q, event, deps)
        await writeCheckpoint(q, name, event.position)
        handled = event.position
      }
      // Events without a mail are passed over with one write per batch, not one per event.
      if (comparePositions(last.position, handled) > 0) {
        await writeCheckpoint(q, name, last.position)
        handled = last.position
      }
      // A short read reached the end of what was readable: reading again would find nothing (what
      // commits later wakes the reactor again, or the next poll finds it).
      if (read.length < batchSize) return 'idle'
    }
    return 'idle'
  }

  const runOnce = (): Promise<Outcome> =>
    lock === 'in-process'
      ? handleReadable(db)
      : withAdvisoryLock(db, `tessera-reactor:${name}`, handleReadable)

  // One run at a time; a wake-up during a run schedules exactly one more.
  const pump = (): Promise<Outcome> => {
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      let outcome: Outcome
      try {
        do {
          again = false
          outcome = await runOnce()
        } while (again && outcome === 'idle' && !stopped)
        failures = 0
      } catch (error) {
        failures += 1
        outcome = 'failed'
        logFailure(error)
      }
      running = null
      afterRun(outcome)
      settled.emit('settled', outcome)
      return outcome
    })()
    return running
  }

  const logFailure = (error: unknown) => {
    const retryInMs = backoffDelay()
    const details = { err: error, failures, retryInMs }
    if (isRetryableDelivery(error)) logger.warn(details, 'mail not delivered; will retry the same mail')
    else logger.error(details, 'mail reactor failed; will retry the same event')
  }

  const backoffDelay = () => Math.min(maxDelayMs, initialDelayMs * 2 ** Math.max(0, failures - 1))

  const afterRun = (outcome: Outcome) => {
    if (stopped) return
    backingOff = outcome === 'failed'
    schedule(backingOff ? backoffDelay() : pollIntervalMs)
  }

  const schedule = (delayMs: number) => {
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => {
      backingOff = false
      void pump()
    }, delayMs)
    timer.unref()
  }

  // During a backoff, commits do not cut the wait short: the transport is what we wait for.
  const wake = () => {
    if (!stopped && !backingOff) void pump()
  }

  /** Where the reactor will be once it has handled everything readable now. */
  const readableHead = async (): Promise<GlobalPosition> => {
    if (readModelsGroup !== null) return readCheckpoint(db, readModelsGroup)
    let head = await readCheckpoint(db, name)
    for (;;) {
      const last = (await store.readAllOpening(head, 1000, opensNone)).at(-1)
      if (!last) return head
      head = last.position
    }
  }

  return {
    async start() {
      stopped = false
      const { onReadModelsAdvance } = options
      const wakeForMail = (events: readonly RecordedEvent[]) => {
        if (events.some((event) => causesMail(event.type))) wake()
      }
      unsubscribers.push(onReadModelsAdvance ? onReadModelsAdvance(wakeForMail) : store.subscribe(wake))
      // Not awaited: a slow or absent mail server must not hold up the start of the service.
      void pump()
    },

    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      for (const unsubscribe of unsubscribers.splice(0)) unsubscribe()
      settled.emit('stopped')
      await running
    },

    async drain() {
      const target = await readableHead()
      for (;;) {
        if (comparePositions(await readCheckpoint(db, name), target) >= 0) return
        if (stopped) throw new Error('the mail reactor is not running')
        if (backingOff) await nextSettled(settled)
        // Another process holds the lock and is sending: give it a moment.
        else if ((await pump()) === 'busy') await new Promise((resolve) => setTimeout(resolve, 25))
      }
    },

    wake,
  }
}

/** The event types the reactor sends a mail for: the only ones it opens. */
const causesMail = (type: string): boolean =>
  isMailEventType(type) ||
  isInvitationMailEventType(type) ||
  isPasswordlessMailEventType(type) ||
  isSecurityNoticeEventType(type) ||
  isTwoFactorMailEventType(type)

const opensNone = (): boolean => false

const withinHorizon = (event: LogEntry, horizon: GlobalPosition | null): boolean =>
  horizon === null || comparePositions(event.position, horizon) <= 0

const isRetryableDelivery = (error: unknown): boolean => error instanceof MailDeliveryError && error.retryable

/** Resolves after the next run ends, or when the reactor stops. */
const nextSettled = (emitter: EventEmitter): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      emitter.off('settled', done)
      emitter.off('stopped', done)
      resolve()
    }
    emitter.on('settled', done)
    emitter.on('stopped', done)
  })
