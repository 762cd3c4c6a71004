/// Group commit for the SQL event store: appends that would each be one statement of their own,
/// asked while another such statement is on its way, go together as one statement (one
/// transaction, one commit, one round trip). On a loaded server the database's work per append,
/// and the server's, fall by half or more (bench/machine-floor.ts, issue 33).
///
/// A statement never names a stream twice, nor one claimed value twice (it does not see its own
/// writes): a call that would is kept, with every later call on its streams or values, for the
/// next statement, so each stream's appends still go in the order they were asked. Each caller
/// gets what it would have got alone: if the gathered statement fails (a stream not at its expected
/// version, a claim held, anything else), each of its calls is sent again alone, in the order
/// they came, and only the one at fault fails.

import type { AppendResult, StreamAppend } from './event-store.js'

/** Sends the parts as one statement; its results in the parts' order. */
export type SendAppend = (parts: readonly StreamAppend[]) => Promise<AppendResult[]>

export type AppendGatheringOptions = {
  /** Statements on their way at once; a call asked while all are out waits for the next. */
  inFlight?: number
  /** The most parts one statement carries (a statement's text and values grow with each). */
  maxParts?: number
}

type Call = {
  parts: readonly StreamAppend[]
  resolve: (results: AppendResult[]) => void
  reject: (error: unknown) => void
}

const claimKeys = (parts: readonly StreamAppend[]): string[] =>
  parts.flatMap((part) =>
    (part.options.uniqueClaims ?? []).map(({ scope, value }) => `${scope}\u0000${value}`),
  )

/**
 * What a part's step of the statement's text depends on (sql-append-statement.ts): the kind of its
 * expected version and how many values it claims. The gathered calls go sorted by it (their
 * streams and values are apart, so their order is free): a statement's text then depends on how
 * many calls of each shape it carries, not on the order they came in, and PostgreSQL keeps a few
 * prepared texts, not one per ordering (infra/db/pg-prepared.ts names a bounded number).
 */
const shapeOf = (parts: readonly StreamAppend[]): string =>
  parts
    .map(({ options: { expectedVersion, uniqueClaims } }) => {
      const kind = typeof expectedVersion === 'number' ? 'n' : expectedVersion
      return `${kind}${uniqueClaims?.length ?? 0}`
    })
    .join(',')

/**
 * The calls of the next statement, taken from the front of `waiting` (which keeps the rest): in
 * their order, but for those whose streams or claimed values one already taken, or one left
 * waiting, names.
 */
export const nextStatement = <C extends { parts: readonly StreamAppend[] }>(
  waiting: C[],
  maxParts: number,
): C[] => {
  const streams = new Set<string>()
  const claims = new Set<string>()
  const taken: C[] = []
  const left: C[] = []
  let parts = 0
  for (const call of waiting) {
    const keys = claimKeys(call.parts)
    const free =
      parts + call.parts.length <= maxParts &&
      call.parts.every(({ stream }) => !streams.has(stream)) &&
      keys.every((key) => !claims.has(key))
    // A call left waiting holds its streams and values too: nothing after it on them goes first.
    for (const { stream } of call.parts) streams.add(stream)
    for (const key of keys) claims.add(key)
    if (free || taken.length === 0) {
      taken.push(call)
      parts += call.parts.length
    } else left.push(call)
  }
  waiting.splice(0, waiting.length, ...left)
  return taken
}

export const createAppendGathering = (
  send: SendAppend,
  { inFlight = 1, maxParts = 64 }: AppendGatheringOptions = {},
) => {
  const waiting: Call[] = []
  let out = 0

  /** Each call alone, in order: each gets its own answer or its own failure. */
  const oneByOne = async (calls: readonly Call[]): Promise<void> => {
    for (const call of calls) await send(call.parts).then(call.resolve, call.reject)
  }

  const sendNext = (): void => {
    while (out < inFlight && waiting.length > 0) {
      const calls = nextStatement(waiting, maxParts)
      out += 1
      const settled = calls.length === 1 ? oneByOne(calls) : together(calls)
      void settled.finally(() => {
        out -= 1
        sendNext()
      })
    }
  }

  const together = async (calls: readonly Call[]): Promise<void> => {
    const ordered = [...calls].sort((a, b) => shapeOf(a.parts).localeCompare(shapeOf(b.parts)))
    let results: AppendResult[]
    try {
      results = await send(ordered.flatMap((call) => call.parts))
    } catch {
      // Which call made the statement fail is for each to learn alone, in the order they came.
      return oneByOne(calls)
    }
    let from = 0
    for (const call of ordered) {
      call.resolve(results.slice(from, from + call.parts.length))
      from += call.parts.length
    }
  }

  return {
    append: (parts: readonly StreamAppend[]): Promise<AppendResult[]> =>
      new Promise((resolve, reject) => {
        waiting.push({ parts, resolve, reject })
        sendNext()
      }),
  }
}
