/// The SCIM team reconciler (KurrentDB only). There a SCIM group call appends the group's events,
/// then the organization's team events: a process that dies between the two leaves a team that
/// never follows its group, and nothing "on the next touch" can tell that from an administrator's
/// deliberate change. This reads the log with its own checkpoint (scim-team-trail.ts keeps the calls
/// whose team events never came) and has the team follow each such call alone, as the live call does
/// after a failed append (`followAlone`, with its drift tolerance).
///
/// - Grace: a call is followed only once its group events are `graceMs` old (by the store's clock of
///   the append against ours), so a live call still about to append its team's side is left alone.
/// - Exactly the missing ones: before following, the organization's stream must hold nothing past
///   what the reconciler has read (so no event of the call's correlation id is there), and the
///   append is pinned to that version: a team event landing meanwhile fails it, and the next pass
///   sees that event. The team events it appends carry the call's correlation id, so a pass after a
///   crash of the reconciler (its checkpoint still before the call) finds them and does not follow
///   again; a call whose commands all turn out to be drift appends nothing and is passed by the
///   checkpoint. The actor is the SCIM connection of the call, the cause its first group event.
/// - One at a time: `exclusively` runs a pass under a lock (an advisory lock on PostgreSQL), with the
///   checkpoint on the same connection; another process finds it busy and tries at its next poll.

import { organizationStream } from '../../domain/organization/organization.js'
import { isDomainError } from '../../domain/shared/errors.js'
import type { EventMetadata } from '../../domain/shared/metadata.js'
import { newId } from '../../infra/crypto/tokens.js'
import {
  ConcurrencyError,
  comparePositions,
  type GlobalPosition,
} from '../../infra/event-store/event-store.js'
import { followAlone, type TeamDependencies, teamCommandsOf } from './scim-team-follower.js'
import {
  asGroupEvents,
  emptyTrail,
  readInto,
  type Trail,
  type TrailingCall,
  untouchedCommands,
} from './scim-team-trail.js'

export type ReconcilerCheckpoint = {
  read(): Promise<GlobalPosition>
  write(position: GlobalPosition): Promise<void>
}

export type ScimTeamReconcilerOptions = {
  /** A `handle` of its own: nobody waits for the read models of what the reconciler appends. */
  team: TeamDependencies
  /** Runs a pass as the only reconciler, with its checkpoint; `busy` when another process runs one. */
  exclusively: <T>(work: (checkpoint: ReconcilerCheckpoint) => Promise<T>) => Promise<T | 'busy'>
  graceMs?: number
  batchSize?: number
  /** How often to look when nothing wakes it (another process may have held the lock). */
  pollIntervalMs?: number
  logger: { warn(details: object, message: string): void }
}

export type ScimTeamReconciler = {
  start(): void
  stop(): Promise<void>
  wake(): void
  /** A pass now (after the one running, if any): the log read to its end, the due calls followed. */
  runOnce(): Promise<void>
}

/**
 * Longer than a live call's two appends with their retries (each up to twice KurrentDB's 10 s append
 * deadline): a call still running is never followed behind its back.
 */
export const DEFAULT_GRACE_MS = 60_000

const AGAIN_AFTER_MS = 1000

type Settled = 'followed' | 'later'

export const createScimTeamReconciler = (options: ScimTeamReconcilerOptions): ScimTeamReconciler => {
  const { team, logger, graceMs = DEFAULT_GRACE_MS, batchSize = 500, pollIntervalMs = 10_000 } = options
  // What was read stays true whoever runs the next pass: the log only grows past `readTo`.
  let trail: Trail | null = null
  let saved: GlobalPosition | null = null

  const readOn = async (reading: Trail): Promise<number> => {
    let count = 0
    for (;;) {
      const events = await team.store.readAll(reading.readTo, batchSize)
      readInto(reading, events)
      count += events.length
      if (events.length < batchSize) return count
    }
  }

  const dueIn = (call: TrailingCall): number =>
    (call.events[0]?.recordedAt.getTime() ?? 0) + graceMs - team.clock().getTime()

  const metadataOf = (call: TrailingCall): EventMetadata => {
    const [first] = call.events
    if (!first) throw new Error('a trailing call has its group events')
    return {
      actor: first.metadata.actor,
      ip: null,
      userAgent: null,
      correlationId: call.correlationId,
      causationId: first.id,
      at: team.clock().toISOString(),
    }
  }

  const settle = async (reading: Trail, call: TrailingCall): Promise<Settled> => {
    const stream = organizationStream(call.organizationId)
    const { version } = await team.handle.load(team.organizations, stream)
    const [last] = version === 0 ? [] : await team.store.readStream(stream, { afterVersion: version - 1 })
    // The organization moved past what was read: that may be this call's team, read on first.
    if (last && comparePositions(last.position, reading.readTo) > 0) return 'later'
    const now = team.clock().toISOString()
    const commands = untouchedCommands(call, teamCommandsOf(asGroupEvents(call.events), now, newId))
    try {
      await followAlone(team, metadataOf(call), call.organizationId, commands, {
        ...(version === 0 ? {} : { expectedVersion: version }),
      })
    } catch (error) {
      if (error instanceof ConcurrencyError) return 'later'
      if (!isDomainError(error)) throw error
      // A refusal of the team's creation (teams off, the team limit): the group stands without it.
      logger.warn(
        { err: error, organizationId: call.organizationId, correlationId: call.correlationId },
        'the team of a SCIM group could not follow it; the group stands alone',
      )
    }
    reading.calls.shift()
    return 'followed'
  }

  /** A pass: the log read to its end, the due calls followed in log order. Answers ms to the next due. */
  const pass = async (checkpoint: ReconcilerCheckpoint): Promise<number | null> => {
    if (!trail) {
      saved = await checkpoint.read()
      trail = emptyTrail(saved)
    }
    const reading = trail
    for (let read = await readOn(reading); ; read = await readOn(reading)) {
      const first = reading.calls[0]
      if (!first || dueIn(first) > 0) break
      if ((await settle(reading, first)) === 'later' && read === 0) break
    }
    const target = reading.calls[0]?.before ?? reading.readTo
    if (saved === null || comparePositions(saved, target) !== 0) {
      await checkpoint.write(target)
      saved = target
    }
    // A call left for later (its organization moved past what is readable yet) is looked at again soon.
    const next = reading.calls[0]
    return next ? Math.max(AGAIN_AFTER_MS, dueIn(next)) : null
  }

  let running: Promise<void> | null = null
  let again = false
  let stopped = true
  let failures = 0
  let timer: NodeJS.Timeout | null = null

  const schedule = (delayMs: number) => {
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => void pump(), delayMs)
    timer.unref()
  }

  const pump = (): Promise<void> => {
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      let delay = pollIntervalMs
      try {
        do {
          again = false
          const next = await options.exclusively(pass)
          if (typeof next === 'number') delay = Math.min(pollIntervalMs, next)
        } while (again && !stopped)
        failures = 0
      } catch (error) {
        failures += 1
        delay = Math.min(60_000, 1000 * 2 ** (failures - 1))
        logger.warn({ err: error, failures, retryInMs: delay }, 'the SCIM team reconciler failed; will retry')
      }
      running = null
      if (!stopped) schedule(delay)
    })()
    return running
  }

  return {
    start() {
      stopped = false
      void pump()
    },
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await running
    },
    wake() {
      if (!stopped) void pump()
    },
    // Through the pump, so it never runs beside a pass of the started reconciler.
    runOnce: () => pump(),
  }
}
