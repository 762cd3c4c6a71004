/// A projector far behind the log makes room for the servers that share its database (issue 31).
///
/// A projector that was stopped while the log grew catches up batch after batch with no pause. Its
/// own CPU priority is lowered (projector-priority.ts), but most of a batch's cost is the database's
/// (its writes, the read models' index upkeep), done by backends at their normal priority: on a host
/// it shares with `--role api` servers, get-session answered 0.6–0.7 of its quiet rate meanwhile.
///
/// So, while more than `farBehindEvents` events lie ahead of it, the projector looks at how busy the
/// database is with everyone else (the transactions it finished per second, as PostgreSQL counts them
/// in `pg_stat_database`) and rests after each batch in proportion:
/// - under `idleTransactionsPerSecond` it never rests: an idle database gets the catch-up at full
///   speed (the projector's own few transactions a batch stay under that line);
/// - from `busyTransactionsPerSecond` on it rests `restPerWork` times what the batch took, and so asks
///   at most 1 / (1 + restPerWork) of what it would of the database and of the cores;
/// - in between, a share of that rest in a straight line.
///
/// The cost: under load the catch-up takes up to 1 + restPerWork times as long, and a command on an
/// api server waits for the projector to pass its events (read-your-writes), so commands made then
/// wait longer (or time out). Near the head it never rests: day to day, commands wait on each batch.
///
/// PostgreSQL's counters move when each backend reports, about once a second, so the rate is taken
/// over a window of a few seconds; until a window has passed, or where the counters cannot be read,
/// the projector rests as if the database were busy.

import type { GlobalPosition } from '../../infra/event-store/event-store.js'

export type CatchUpPacing = {
  /** Events still ahead of the checkpoint from which the projector paces itself. */
  farBehindEvents: number
  /** Others' transactions per second under which the database counts as idle: no rest. */
  idleTransactionsPerSecond: number
  /** Others' transactions per second from which the projector rests the most. */
  busyTransactionsPerSecond: number
  /** Milliseconds of rest per millisecond a batch took, on a busy database. */
  restPerWork: number
}

/**
 * A `--role projector`'s pacing, keeping `busySharePercent` of its full pace on a busy database
 * (PROJECTOR_CATCH_UP_SHARE). 5,000 events are ten of its batches, a few seconds of applying; further
 * behind than that, it was stopped (or could not keep up) and no command is answered soon anyway. A
 * catch-up batch costs the projector about four transactions, ten batches a second at most: well under
 * 100. At 1,000 others' transactions a second the database serves in earnest (get-session alone
 * reaches ~1,800 a second on two cores).
 */
export const catchUpPacing = (busySharePercent: number): CatchUpPacing => ({
  farBehindEvents: 5_000,
  idleTransactionsPerSecond: 100,
  busyTransactionsPerSecond: 1_000,
  restPerWork: 100 / busySharePercent - 1,
})

/** How long a span of counter readings the rate is taken over (PostgreSQL reports about each second). */
export const RATE_WINDOW_MS = 3_000

export type PacingClock = {
  now(): number
  sleep(ms: number): Promise<void>
}

/** How many events lie past `position`, counted up to `limit` (the log's head, LogHead.eventsAfter). */
export type EventsAhead = (position: GlobalPosition, limit: number) => Promise<number>

/** The database's count of finished transactions so far, or null where it cannot be read. */
export type FinishedTransactions = () => Promise<number | null>

type Reading = { at: number; count: number }

/**
 * Transactions per second over the readings of the last window: null until the readings span a
 * whole window. Keeps the newest reading that is at least a window old as the window's start.
 */
export const transactionRate = () => {
  let readings: Reading[] = []
  return {
    observe(reading: Reading): number | null {
      readings.push(reading)
      const oldEnough = readings.findLastIndex((r) => reading.at - r.at >= RATE_WINDOW_MS)
      if (oldEnough > 0) readings = readings.slice(oldEnough)
      const first = readings[0] as Reading
      const span = reading.at - first.at
      return span >= RATE_WINDOW_MS ? ((reading.count - first.count) * 1000) / span : null
    },
    forget() {
      readings = []
    },
  }
}

/** The share of `restPerWork` to rest at `rate` others' transactions per second (null: unknown). */
export const restShare = (pacing: CatchUpPacing, rate: number | null): number => {
  if (rate === null) return 1
  const { idleTransactionsPerSecond: idle, busyTransactionsPerSecond: busy } = pacing
  return Math.min(1, Math.max(0, (rate - idle) / (busy - idle)))
}

/** The rest after each batch of a catch-up; nothing without pacing (a replay, a server that serves). */
export const catchUpPacer = (
  pacing: CatchUpPacing | null,
  clock: PacingClock,
  eventsAhead: EventsAhead,
  finishedTransactions: FinishedTransactions,
) => {
  const rate = transactionRate()
  return {
    /** After a batch that began at `startedAt` and left the checkpoint at `reached`. */
    async restAfter(startedAt: number, reached: GlobalPosition): Promise<void> {
      if (!pacing || pacing.restPerWork <= 0) return
      const worked = clock.now() - startedAt
      if ((await eventsAhead(reached, pacing.farBehindEvents)) < pacing.farBehindEvents) {
        // Near the head again: a later catch-up starts its window afresh.
        rate.forget()
        return
      }
      const count = await finishedTransactions()
      const perSecond = count === null ? null : rate.observe({ at: clock.now(), count })
      const rest = Math.max(0, worked) * pacing.restPerWork * restShare(pacing, perSecond)
      if (rest > 0) await clock.sleep(rest)
    },
  }
}
