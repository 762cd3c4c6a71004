/// `KurrentLog` on `@kurrent/kurrentdb-client`. Thin on purpose: every decision (claims, repair,
/// positions, versions) is made in code that the unit tests run against an in-memory log; this
/// file only translates calls, results and errors. It has not run against a real server here.

import {
  type AllStreamResolvedEvent,
  ANY,
  BACKWARDS,
  END,
  FORWARDS,
  jsonEvent,
  type KurrentDBClient,
  NO_STREAM,
  type ResolvedEvent,
  START,
  StreamNotFoundError,
  streamNameFilter,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client'
import {
  type AppendOutcome,
  type KurrentLog,
  type LogPosition,
  type LogRecord,
  type StreamState,
  StreamStateMismatch,
  strictlyAfter,
} from './kurrent-log.js'

export type ClientLogOptions = {
  /** Bound on one append; the claim grace period (claims.ts) must be well above it. */
  appendDeadlineMs: number
  /** A dropped subscription is opened again after this long. */
  resubscribeAfterMs?: number
  onSubscriptionError?: (error: unknown) => void
}

type AnyRecorded = NonNullable<ResolvedEvent['event']> | NonNullable<AllStreamResolvedEvent['event']>

const toRecord = (event: AnyRecorded): LogRecord => ({
  stream: event.streamId,
  id: event.id,
  type: event.type,
  revision: event.revision,
  data: event.data,
  metadata: event.metadata,
  created: event.created,
  position: event.position ? { commit: event.position.commit, prepare: event.position.prepare } : null,
})

const toClientState = (expected: StreamState) =>
  expected === 'no_stream' ? NO_STREAM : expected === 'any' ? ANY : expected

const recordsOf = async (
  read: AsyncIterableIterator<ResolvedEvent | AllStreamResolvedEvent>,
): Promise<LogRecord[]> => {
  const records: LogRecord[] = []
  for await (const resolved of read) if (resolved.event) records.push(toRecord(resolved.event))
  return records
}

const orEmptyWhenMissing = async (read: () => Promise<LogRecord[]>): Promise<LogRecord[]> => {
  try {
    return await read()
  } catch (error) {
    if (error instanceof StreamNotFoundError) return []
    throw error
  }
}

export const clientLog = (client: KurrentDBClient, options: ClientLogOptions): KurrentLog => {
  const subscriptions = new Set<{ stop(): Promise<void> }>()
  return {
    async append(stream, records, expected): Promise<AppendOutcome> {
      try {
        const result = await client.appendToStream(
          stream,
          records.map((record) =>
            jsonEvent({
              id: record.id,
              type: record.type,
              data: record.data as Record<string, unknown>,
              metadata: record.metadata as Record<string, unknown>,
            }),
          ),
          { streamState: toClientState(expected), deadline: options.appendDeadlineMs },
        )
        return {
          nextRevision: result.nextExpectedRevision,
          position: result.position
            ? { commit: result.position.commit, prepare: result.position.prepare }
            : null,
        }
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          const actual = error.actualState
          throw new StreamStateMismatch(stream, expected, typeof actual === 'bigint' ? actual : 'no_stream')
        }
        throw error
      }
    },

    readStream: (stream, { from, maxCount } = {}) =>
      orEmptyWhenMissing(() =>
        recordsOf(
          client.readStream(stream, {
            direction: FORWARDS,
            fromRevision: from ?? START,
            ...(maxCount === undefined ? {} : { maxCount }),
          }),
        ),
      ),

    async readLast(stream) {
      const [last] = await orEmptyWhenMissing(() =>
        recordsOf(client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })),
      )
      return last ?? null
    },

    async readAll({ after, prefix, maxCount }) {
      const records = await recordsOf(
        client.readAll({
          direction: FORWARDS,
          fromPosition: after ?? START,
          // The read includes the record at `after`: one more, and `strictlyAfter` drops it.
          maxCount: maxCount + 1,
          filter: streamNameFilter({ prefixes: [prefix] }),
        }),
      )
      return strictlyAfter(records, after, maxCount)
    },

    async readLastOfAll(prefix) {
      const [last] = await recordsOf(
        client.readAll({
          direction: BACKWARDS,
          fromPosition: END,
          maxCount: 1,
          filter: streamNameFilter({ prefixes: [prefix] }),
        }),
      )
      return last ?? null
    },

    subscribe(prefix, onRecord) {
      let stopped = false
      let last: LogPosition | null = null
      let current: ReturnType<KurrentDBClient['subscribeToAll']> | null = null
      let retry: NodeJS.Timeout | null = null
      const open = () => {
        if (stopped) return
        const subscription = client.subscribeToAll({
          fromPosition: last ?? END,
          filter: streamNameFilter({ prefixes: [prefix] }),
        })
        current = subscription
        subscription.on('data', (resolved: AllStreamResolvedEvent) => {
          if (!resolved.event) return
          const record = toRecord(resolved.event)
          last = record.position ?? last
          onRecord(record)
        })
        subscription.on('error', (error: Error) => {
          if (stopped) return
          options.onSubscriptionError?.(error)
          // Only a wake-up is lost meanwhile: the projector also polls.
          retry = setTimeout(open, options.resubscribeAfterMs ?? 1000)
          retry.unref()
        })
      }
      open()
      const handle = {
        async stop() {
          stopped = true
          subscriptions.delete(handle)
          if (retry) clearTimeout(retry)
          await current?.unsubscribe().catch(() => {})
        },
      }
      subscriptions.add(handle)
      return handle
    },

    async close() {
      await Promise.all([...subscriptions].map((subscription) => subscription.stop()))
      await client.dispose()
    },
  }
}
