/// Readiness: can this instance answer commands truthfully now? Red when the projector group is
/// halted on an event it cannot apply (recorded in the database, so every instance sees it), when
/// this process's projector is stopped or keeps failing, or when the read models trail the log by
/// more than the threshold, including the lag a long transaction causes through the xmin horizon.
/// The same figures are offered in Prometheus' text format for `GET /metrics`, with the process's
/// own (infra/runtime/runtime-metrics.ts).

import type { Kysely } from 'kysely'
import { type EventStore, formatPosition } from '../../infra/event-store/event-store.js'
import type { ProjectorStatus } from '../../projections/runner/projector.js'
import { describeFault, readFault } from '../../projections/runner/projector-faults.js'
import { measureLag, type ProjectorLag } from '../../projections/runner/projector-lag.js'
import { countPendingRevocations } from '../../projections/sessions/pending-revocations.js'

// biome-ignore lint/suspicious/noExplicitAny: these helpers serve any schema that has their tables
type AnyDb = Kysely<any>

export type ReadinessReport = {
  ready: boolean
  reasons: string[]
  projector: {
    group: string
    mode: ProjectorStatus['mode']
    state: ProjectorStatus['state']
    checkpoint: string
    failures: number
    failuresTotal: number
    lastError: string | null
    fault: string | null
  }
  lag: Omit<ProjectorLag, 'checkpoint'> & { pendingRevocations: number }
}

export type Readiness = {
  check(): Promise<ReadinessReport>
  metrics(): Promise<string>
}

export type ReadinessOptions = {
  db: AnyDb
  /** Where the end of the log is read (the SQL table, or KurrentDB's `$all`). */
  store: Pick<EventStore, 'head'>
  projector: { status(): ProjectorStatus }
  /** Lag, in seconds of the oldest unapplied event, past which the instance is not ready. */
  maxLagSeconds?: number
  /** Consecutive failed batches past which a retrying projector counts as stuck. */
  maxFailures?: number
  /** The process's own figures (event-loop delay, GC pauses), appended to the metrics. */
  runtime?: { metrics(): string }
}

export const createReadiness = ({
  db,
  store,
  projector,
  maxLagSeconds = 30,
  maxFailures = 3,
  runtime,
}: ReadinessOptions): Readiness => {
  const check = async (): Promise<ReadinessReport> => {
    const status = projector.status()
    const [{ checkpoint, ...lag }, stored, pendingRevocations] = await Promise.all([
      measureLag(db, store, status.group),
      readFault(db, status.group),
      countPendingRevocations(db),
    ])
    const fault = stored ?? status.fault
    const reasons: string[] = []
    if (fault) reasons.push(`halted: ${describeFault(fault)}`)
    if (status.state === 'stopped') reasons.push('the projector of this process is stopped')
    if (status.state === 'retrying' && status.failures >= maxFailures)
      reasons.push(`the projector failed ${status.failures} times in a row: ${status.lastError ?? ''}`)
    if (lag.behindSeconds > maxLagSeconds)
      reasons.push(
        `read models are ${lag.behindSeconds.toFixed(1)} s behind the log (${lag.behindEvents} events, ` +
          `${lag.heldByHorizon} held back by a running transaction)`,
      )
    return {
      ready: reasons.length === 0,
      reasons,
      projector: {
        group: status.group,
        mode: status.mode,
        state: fault ? 'halted' : status.state,
        checkpoint: formatPosition(checkpoint),
        failures: status.failures,
        failuresTotal: status.failuresTotal,
        lastError: status.lastError,
        fault: fault ? describeFault(fault) : null,
      },
      lag: { ...lag, pendingRevocations },
    }
  }

  return {
    check,
    async metrics() {
      const report = await check()
      const group = `{group="${report.projector.group}"}`
      const metric = (name: string, type: 'gauge' | 'counter', help: string, value: number, labels = group) =>
        `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${name}${labels} ${value}\n`
      return [
        metric(
          'tessera_ready',
          'gauge',
          'Whether this instance is ready (1) or not (0).',
          report.ready ? 1 : 0,
          '',
        ),
        metric(
          'tessera_projector_halted',
          'gauge',
          'Whether the projector group is halted on an event it cannot apply.',
          report.projector.fault ? 1 : 0,
        ),
        metric(
          'tessera_projector_failures_total',
          'counter',
          'Failed projector batches in this process.',
          report.projector.failuresTotal,
        ),
        metric(
          'tessera_projector_lag_events',
          'gauge',
          'Committed events the read models do not show yet.',
          report.lag.behindEvents,
        ),
        metric(
          'tessera_projector_lag_seconds',
          'gauge',
          'Age of the oldest committed event the read models do not show yet.',
          report.lag.behindSeconds,
        ),
        metric(
          'tessera_projector_held_by_horizon_events',
          'gauge',
          'Unapplied events the projector may not read yet because an older transaction is still running.',
          report.lag.heldByHorizon,
        ),
        metric(
          'tessera_oldest_transaction_seconds',
          'gauge',
          'Age of the oldest running transaction that holds a transaction id, server-wide.',
          report.lag.oldestTransactionSeconds ?? 0,
          '',
        ),
        metric(
          'tessera_pending_revocations',
          'gauge',
          'Session revocations committed and enforced but not yet in the sessions read model.',
          report.lag.pendingRevocations,
          '',
        ),
        runtime?.metrics() ?? '',
      ].join('')
    },
  }
}
