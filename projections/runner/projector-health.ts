/// The projector's health as pure transitions: what a committed run, a failed run, a halt and an
/// operator's retry do to it. No clock is read here (`now` comes in), so backoff and halting are
/// unit-tested without waiting (projector-health.unit.spec.ts); projector.ts only holds the value.

import { ProjectionError, retryDelayMs } from './apply-batch.js'
import type { ProjectorFault } from './projector-faults.js'

export type ProjectorHealth = {
  /** Failed runs since the last successful one. */
  failures: number
  /** Failed runs since the process started (a counter for metrics). */
  failuresTotal: number
  lastError: string | null
  /** No wake-up may start a run before this time (ms since the epoch): the last failure's backoff. */
  retryAt: number
  /** The event a projection failed on, and how many runs in a row failed on it. */
  suspect: { error: ProjectionError; attempts: number } | null
  /** Set once one event failed `maxAttempts` runs in a row; cleared only by an operator. */
  halted: ProjectorFault | null
}

export type FailurePolicy = { group: string; maxAttempts: number; retryBaseMs: number }

export const healthy = (): ProjectorHealth => ({
  failures: 0,
  failuresTotal: 0,
  lastError: null,
  retryAt: 0,
  suspect: null,
  halted: null,
})

/** A run went through: failures and backoff are forgotten (the totals are kept). */
export const applied = (health: ProjectorHealth): ProjectorHealth => ({
  ...health,
  failures: 0,
  lastError: null,
  retryAt: 0,
  suspect: null,
})

/**
 * A run failed. Only a projection's own failure counts towards halting: a database that is down
 * fails reading the log first, and that is waited out with backoff, however long it takes.
 */
export const failed = (
  health: ProjectorHealth,
  error: unknown,
  now: number,
  policy: FailurePolicy,
): ProjectorHealth => {
  const failures = health.failures + 1
  const next = {
    ...health,
    failures,
    failuresTotal: health.failuresTotal + 1,
    lastError: error instanceof Error ? error.message : String(error),
  }
  if (!(error instanceof ProjectionError))
    return { ...next, retryAt: now + retryDelayMs(error, failures, policy.retryBaseMs) }
  const attempts = health.suspect?.error.event.id === error.event.id ? health.suspect.attempts + 1 : 1
  const suspect = { error, attempts }
  if (attempts >= policy.maxAttempts)
    return { ...next, suspect, halted: faultOf(error, attempts, now, policy) }
  return { ...next, suspect, retryAt: now + retryDelayMs(error, failures, policy.retryBaseMs) }
}

const faultOf = (
  error: ProjectionError,
  attempts: number,
  now: number,
  policy: FailurePolicy,
): ProjectorFault => ({
  group: policy.group,
  position: error.event.position,
  eventId: error.event.id,
  eventType: error.event.type,
  projection: error.projection,
  error: error.cause instanceof Error ? error.cause.message : String(error.cause),
  attempts,
  haltedAt: new Date(now),
})

/** Halted by a fault found in the database (recorded by this or another process before). */
export const haltedBy = (health: ProjectorHealth, fault: ProjectorFault): ProjectorHealth => ({
  ...health,
  halted: fault,
})

/** An operator cleared the fault: start afresh from the event that halted the group. */
export const resumed = (health: ProjectorHealth): ProjectorHealth => ({ ...applied(health), halted: null })

/** Whether a nudge (a commit, a waiter) may start a run now. */
export const mayRun = (health: ProjectorHealth, now: number): boolean =>
  !health.halted && now >= health.retryAt

export const stateOf = (health: ProjectorHealth, stopped: boolean) =>
  stopped ? 'stopped' : health.halted ? 'halted' : health.failures > 0 ? 'retrying' : 'running'
