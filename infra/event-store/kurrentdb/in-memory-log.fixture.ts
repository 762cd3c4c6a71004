/// A stand-in for a KurrentDB server behind the `KurrentLog` port, for tests: one global log
/// ordered by (commit, prepare), appends checked against expected revisions atomically, repeated
/// appends of the same event ids answered as written once (KurrentDB's idempotence), records of
/// the last append-to-`$all` delivered to subscribers. Every call yields to the event loop first, so
/// concurrent callers interleave as they would over the network. Hooks inject a failure before an
/// append is written or after (a crash, a lost answer). It is not KurrentDB: the contract suite
/// against a real server is what proves the client mapping (kurrent-client-log.ts).

import type {
  AppendOutcome,
  KurrentLog,
  LogPosition,
  LogRecord,
  NewRecord,
  StreamState,
  Subscription,
} from './kurrent-log.js'
import { compareLogPositions, StreamStateMismatch } from './kurrent-log.js'

export type AppendHook = (stream: string, records: readonly NewRecord[]) => void

export type InMemoryLog = KurrentLog & {
  /** Every record in `$all` order. */
  readonly all: readonly LogRecord[]
  /** Throws from here to fail an append before it is written. */
  beforeAppend: AppendHook | null
  /** Throws from here to lose the answer of an append that was written. */
  afterAppend: AppendHook | null
  closed: boolean
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

export const createInMemoryLog = (now: () => number = Date.now): InMemoryLog => {
  const all: LogRecord[] = []
  const streams = new Map<string, LogRecord[]>()
  const listeners = new Set<{ prefix: string; onRecord: (record: LogRecord) => void }>()
  let next = 1000n

  const log: InMemoryLog = {
    all,
    beforeAppend: null,
    afterAppend: null,
    closed: false,

    async append(stream, records, expected: StreamState): Promise<AppendOutcome> {
      await turn()
      log.beforeAppend?.(stream, records)
      const existing = streams.get(stream) ?? []
      const current = existing.at(-1)?.revision ?? ('no_stream' as const)
      const base = expected === 'no_stream' ? 0 : expected === 'any' ? existing.length : Number(expected) + 1
      const repeated = records.every((record, index) => existing[base + index]?.id === record.id)
      if (repeated && records.length > 0 && existing.length >= base + records.length) {
        const last = existing[base + records.length - 1] as LogRecord
        return { nextRevision: last.revision, position: last.position }
      }
      const matches =
        expected === 'any' || (expected === 'no_stream' ? current === 'no_stream' : current === expected)
      if (!matches) throw new StreamStateMismatch(stream, expected, current)
      const commit = next
      const written = records.map((record, index): LogRecord => {
        const prepare = commit + BigInt(index) * 100n
        return {
          stream,
          id: record.id,
          type: record.type,
          revision: BigInt(existing.length + index),
          data: structuredClone(record.data),
          metadata: structuredClone(record.metadata),
          created: new Date(now()),
          position: { commit, prepare },
        }
      })
      next = commit + BigInt(records.length) * 100n + 50n
      streams.set(stream, [...existing, ...written])
      all.push(...written)
      const last = written.at(-1) as LogRecord
      for (const record of written)
        for (const listener of listeners)
          if (record.stream.startsWith(listener.prefix)) setImmediate(() => listener.onRecord(record))
      log.afterAppend?.(stream, records)
      return { nextRevision: last.revision, position: last.position }
    },

    async readStream(stream, { from = 0n, maxCount = Number.MAX_SAFE_INTEGER } = {}) {
      await turn()
      return (streams.get(stream) ?? [])
        .filter((record) => record.revision >= from)
        .slice(0, maxCount)
        .map(copy)
    },

    async readLast(stream) {
      await turn()
      const last = streams.get(stream)?.at(-1)
      return last ? copy(last) : null
    },

    async readAll({ after, prefix, maxCount }) {
      await turn()
      return all
        .filter((record) => record.stream.startsWith(prefix))
        .filter((record) => after === null || compareLogPositions(record.position as LogPosition, after) > 0)
        .slice(0, maxCount)
        .map(copy)
    },

    async readLastOfAll(prefix) {
      await turn()
      const last = all.findLast((record) => record.stream.startsWith(prefix))
      return last ? copy(last) : null
    },

    subscribe(prefix, onRecord): Subscription {
      const listener = { prefix, onRecord }
      listeners.add(listener)
      return {
        async stop() {
          listeners.delete(listener)
        },
      }
    },

    async close() {
      listeners.clear()
      log.closed = true
    },
  }
  return log
}

const copy = (record: LogRecord): LogRecord => ({
  ...record,
  data: structuredClone(record.data),
  metadata: structuredClone(record.metadata),
})
