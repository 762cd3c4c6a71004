/// The SQL event store's append: every part of an append, and its claims, in one statement that
/// refuses itself (`tessera_refuse_append`, schema.ts) when a stream is not at its expected version
/// or a claim is held by another owner, and the error the port gives for each refusal.

import { CompiledQuery, type Kysely, sql } from 'kysely'
import {
  type AppendOptions,
  type AppendResult,
  ConcurrencyError,
  type StreamAppend,
  type UniqueClaim,
  UniqueClaimConflictError,
} from './event-store.js'
import { appendStatement } from './sql-append-statement.js'

// biome-ignore lint/suspicious/noExplicitAny: the store reads and writes its own tables only
type Db = Kysely<any>

/** The SQLSTATE of `tessera_refuse_append` (schema.ts): the append's statement refused itself. */
const APPEND_REFUSED = 'TSAR1'

/** Which part or claim made the statement refuse itself (`tessera_refuse_append`'s reason). */
type Refusal = { kind: 'part' | 'claim'; index: number }

/** A statement that wrote nothing because nothing moved: refused without having to raise. */
class NothingMoved extends Error {
  constructor(readonly refusal: Refusal) {
    super(`${refusal.kind} ${refusal.index} did not move`)
  }
}

export const refusalOf = (error: unknown): Refusal | null => {
  if (error instanceof NothingMoved) return error.refusal
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== APPEND_REFUSED)
    return null
  const match = /^(part|claim) (\d+)$/.exec(String((error as { message?: unknown }).message))
  return match ? { kind: match[1] as Refusal['kind'], index: Number(match[2]) } : null
}

/** A row of the append's answer: a stream that moved, its version and its last event's position. */
type AppendedRow = { stream_id: string; version: number; seq: string; tx_id: string }

/** The claims an append takes in its statement, and whether that is all of them. */
export const claimsOf = (parts: readonly StreamAppend[]) => {
  const all = parts.flatMap((part, index) =>
    (part.options.uniqueClaims ?? []).map((claim) => ({ claim, index })),
  )
  // A statement does not see its own writes: a release and a take of one value (or two takes of
  // it) go one by one, in their order, after the statement, in its transaction.
  const inStatement =
    all.every(({ claim }) => claim.op === 'claim') &&
    new Set(all.map(({ claim }) => `${claim.scope}\u0000${claim.value}`)).size === all.length
  return { all, inStatement, taken: inStatement ? all : [] }
}

/**
 * Appends every part in one statement (one round trip, however many parts and events; its text in
 * sql-append-statement.ts) and takes the parts' claims in it too; outside a transaction it is one
 * of its own. A part whose stream is
 * not at its expected version, or a claim another owner holds, makes the statement raise
 * (`tessera_refuse_append`), which undoes all it wrote; `appendAll` tells the caller why.
 */
export const appendParts = async (
  q: Db,
  parts: readonly StreamAppend[],
  { locks, storeId }: { locks: readonly string[]; storeId: string },
): Promise<AppendResult[]> => {
  const streams = parts.map((part) => part.stream)
  // Two updates of one stream's row in one statement would see the same version.
  if (new Set(streams).size !== streams.length) throw new Error('an append names a stream twice')
  const { all, inStatement, taken } = claimsOf(parts)

  const { text, values } = appendStatement(parts, taken, { locks, storeId })
  const { rows } = await q.executeQuery(CompiledQuery.raw(text, values) as CompiledQuery<AppendedRow>)

  // No row: nothing moved, so nothing was written (the verdict only runs with a row).
  if (rows.length < parts.length) {
    const index = parts.findIndex(({ stream }) => !rows.some((row) => row.stream_id === stream))
    throw new NothingMoved({ kind: 'part', index })
  }
  if (!inStatement) for (const { claim } of all) await applyClaim(q, claim)
  return parts.map(({ stream }) => {
    const row = rows.find((candidate) => candidate.stream_id === stream) as (typeof rows)[number]
    return { nextVersion: row.version, position: { tx: BigInt(row.tx_id), seq: BigInt(row.seq) } }
  })
}

/** Why the append was refused, as the port says it: the stream's actual version, or the claim. */
export const refusedAppend = async (
  db: Db,
  parts: readonly StreamAppend[],
  refusal: Refusal,
): Promise<Error> => {
  if (refusal.kind === 'claim') {
    const { claim } = claimsOf(parts).taken[refusal.index] as { claim: UniqueClaim }
    return new UniqueClaimConflictError(claim.scope, claim.value)
  }
  const { stream, options } = parts[refusal.index] as StreamAppend
  return concurrencyError(db, stream, options.expectedVersion)
}

/** The stream was not at the expected version: says where it is (for the message only). */
const concurrencyError = async (
  q: Db,
  stream: string,
  expectedVersion: AppendOptions['expectedVersion'],
): Promise<ConcurrencyError> => {
  const { rows } = await sql<{ version: number }>`
    select version from tessera_streams where stream_id = ${stream}`.execute(q)
  return new ConcurrencyError(stream, expectedVersion, rows[0]?.version ?? 'no_stream')
}

const applyClaim = async (trx: Db, claim: UniqueClaim): Promise<void> => {
  if (claim.op === 'release') {
    await sql`
      delete from tessera_unique_claims
      where scope = ${claim.scope} and value = ${claim.value} and owner = ${claim.owner}`.execute(trx)
    return
  }
  // A concurrent claim of the same value waits here for the first to commit, then sees it.
  const { rows } = await sql<{ owner: string }>`
    insert into tessera_unique_claims (scope, value, owner) values (${claim.scope}, ${claim.value}, ${claim.owner})
    on conflict (scope, value) do update set owner = excluded.owner
      where tessera_unique_claims.owner = excluded.owner
    returning owner`.execute(trx)
  if (rows.length === 0) throw new UniqueClaimConflictError(claim.scope, claim.value)
}
