/// When a failed delivery is tried again: about 1 s, 5 s, 30 s, 2 min, 10 min and 1 h after the
/// failures, then every 6 h, until 3 days have passed since the first failure; then the endpoint is
/// disabled. Each wait is jittered (±20%) so that endpoints that failed together do not all come
/// back in the same instant. Pure: time and randomness are passed in, so backoff is tested without
/// waiting.

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

export type RetrySchedule = {
  /** Waits after the 1st, 2nd, ... failure; past the list, the last one repeats. */
  delaysMs: readonly number[]
  /** From the first failure, how long before giving up. */
  giveUpAfterMs: number
}

export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  delaysMs: [1 * SECOND, 5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, 1 * HOUR, 6 * HOUR],
  giveUpAfterMs: 72 * HOUR,
}

const JITTER = 0.2

/**
 * The next attempt after `failures` failed attempts at one event (the first failure at
 * `failingSince`), or `give-up` once the schedule's period is over. `random` is in [0, 1).
 */
export const nextAttempt = (
  schedule: RetrySchedule,
  failures: number,
  failingSince: Date,
  now: Date,
  random: number,
): Date | 'give-up' => {
  const elapsed = now.getTime() - failingSince.getTime()
  if (elapsed >= schedule.giveUpAfterMs) return 'give-up'
  const base =
    schedule.delaysMs[Math.min(failures, schedule.delaysMs.length) - 1] ?? schedule.delaysMs[0] ?? 0
  const jittered = base * (1 - JITTER + 2 * JITTER * random)
  // The last attempt falls on the end of the period, not past it by up to six hours.
  const untilGiveUp = schedule.giveUpAfterMs - elapsed
  return new Date(now.getTime() + Math.min(jittered, untilGiveUp))
}
