/// Tessera's stream versions and global positions in KurrentDB's terms, both ways.
///
/// Versions: Tessera counts a stream's events from 1 (the version after the first event is 1);
/// KurrentDB numbers them from 0 (the revision of the first event is 0). So version = revision + 1,
/// and "expect version n" is "expect revision n - 1".
///
/// Positions: `$all` is ordered by (commit, prepare), which is `GlobalPosition`'s (tx, seq), so a
/// position maps field for field and the projector's checkpoints (bigint pairs in PostgreSQL or
/// PGlite) hold KurrentDB positions unchanged.

import { ConcurrencyError, type ExpectedVersion, type GlobalPosition, START } from '../event-store.js'
import type { LogPosition, StreamState, StreamStateMismatch } from './kurrent-log.js'

/** The state to ask KurrentDB for; null when no stream can be in it (version 0 or below). */
export const streamStateFor = (expected: ExpectedVersion): StreamState | null => {
  if (expected === 'no_stream' || expected === 'any') return expected
  if (!Number.isSafeInteger(expected) || expected < 1) return null
  return BigInt(expected - 1)
}

export const versionOf = (revision: bigint): number => Number(revision) + 1

export const revisionOf = (version: number): bigint => BigInt(version - 1)

export const globalPositionOf = (position: LogPosition): GlobalPosition => ({
  tx: position.commit,
  seq: position.prepare,
})

/** Null for START: the beginning of `$all`, before any record. */
export const logPositionOf = (position: GlobalPosition): LogPosition | null =>
  position.tx === START.tx && position.seq === START.seq
    ? null
    : { commit: position.tx, prepare: position.seq }

export const concurrencyErrorOf = (
  stream: string,
  expected: ExpectedVersion,
  mismatch: Pick<StreamStateMismatch, 'actual'>,
): ConcurrencyError =>
  new ConcurrencyError(
    stream,
    expected,
    mismatch.actual === 'no_stream' ? 'no_stream' : versionOf(mismatch.actual),
  )
