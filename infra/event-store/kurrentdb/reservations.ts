/// Unique claims on KurrentDB, the pure part: what a reservation stream and the owner's stream say
/// about who holds a value, and what a claim should do about it. No I/O here (claims.ts does it), so
/// every case of the repair is a unit test.
///
/// One reservation stream per (scope, value). `claim.reserved` names the owner, the Tessera stream
/// of the append that claimed it and that append's first event id (its *intent*); `claim.released`
/// frees the value. The reservation is written first (expected revision: the stream's current one,
/// so of two claimers one wins), then the owner's events. Who holds a value is then decided by
/// looking at both streams:
///
/// - the intent is in the owner's stream: the claim is **held**, unless a later append of the same
///   owner recorded a release of it (**released in log**: the process died before writing
///   `claim.released`);
/// - the intent is not there yet: the owning append may still be on its way (**pending**, held)
///   until the grace period has passed, then the claimer died before its append (**orphaned**): the
///   reservation it displaced, if any, holds again, else the value is free.
///
/// A later claimer writes over a released-in-log or orphaned reservation: that is the repair.

import type { UniqueClaim } from '../event-store.js'

export const RESERVED = 'claim.reserved'
export const RELEASED = 'claim.released'

export type Reservation = {
  scope: string
  value: string
  owner: string
  /** The Tessera stream of the owning append; null with `intent` for a reservation an import made. */
  stream: string | null
  /** Id of the owning append's first event; null: unconditional (carried over by `tessera import`). */
  intent: string | null
  /** The reservation this one displaced (a transfer, or the same owner again), one level deep. */
  replaces: Reservation | null
}

export type Released = {
  scope: string
  value: string
  owner: string
  reason: 'released' | 'compensated'
}

export type Verdict = 'held' | 'pending' | 'orphaned' | 'released-in-log'

/** What the owner's stream says about a reservation: the records in order, with their claim ops. */
export type OwnerRecord = { id: string; claims: readonly UniqueClaim[] }

const concerns = (reservation: Reservation, op: UniqueClaim) =>
  op.scope === reservation.scope && op.value === reservation.value && op.owner === reservation.owner

/**
 * `ageMs`: how long ago the reservation was written (by the server's clock against ours: the grace
 * period must cover clock skew as well as the slowest append).
 */
export const judge = (
  reservation: Reservation,
  ownerRecords: readonly OwnerRecord[],
  ageMs: number,
  graceMs: number,
): Verdict => {
  if (reservation.intent === null) return 'held'
  const at = ownerRecords.findIndex((record) => record.id === reservation.intent)
  if (at === -1) return ageMs < graceMs ? 'pending' : 'orphaned'
  let last: UniqueClaim['op'] | null = null
  for (const record of ownerRecords.slice(at + 1))
    for (const op of record.claims) if (concerns(reservation, op)) last = op.op
  return last === 'release' ? 'released-in-log' : 'held'
}

export type Holder = { reservation: Reservation; verdict: 'held' | 'pending' }

export type ClaimDecision =
  /** The owner already holds it for good: nothing to write. */
  | { kind: 'keep' }
  /** Write a reservation; `replaces` is what it displaces (kept for a repair or an undo). */
  | { kind: 'reserve'; replaces: Reservation | null }
  | { kind: 'conflict'; holder: string }

/**
 * `operations`: every claim operation of the append, so a claim over a holder that the same append
 * releases (a deleted user's provider account, linked anew) is a transfer rather than a conflict.
 */
export const decideClaim = (
  claim: UniqueClaim,
  holder: Holder | null,
  operations: readonly UniqueClaim[],
): ClaimDecision => {
  if (holder === null) return { kind: 'reserve', replaces: null }
  const { reservation, verdict } = holder
  if (reservation.owner === claim.owner)
    // Pending: an earlier append of the same owner is unconfirmed; this append's intent takes over.
    return verdict === 'held' ? { kind: 'keep' } : { kind: 'reserve', replaces: flat(reservation) }
  const released = operations.some(
    (op) =>
      op.op === 'release' &&
      op.scope === claim.scope &&
      op.value === claim.value &&
      op.owner === reservation.owner,
  )
  return released
    ? { kind: 'reserve', replaces: flat(reservation) }
    : { kind: 'conflict', holder: reservation.owner }
}

/** Only one level of history is kept: enough to undo or repair the last write. */
export const flat = (reservation: Reservation): Reservation => ({ ...reservation, replaces: null })

/** A release after the owning append: only the holder's own release writes anything. */
export const releaseApplies = (release: UniqueClaim, current: Reservation | null): boolean =>
  current !== null && current.owner === release.owner

export const isReservation = (value: unknown): value is Reservation => {
  const candidate = value as Partial<Reservation> | null
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.scope === 'string' &&
    typeof candidate.value === 'string' &&
    typeof candidate.owner === 'string' &&
    (candidate.intent === null || typeof candidate.intent === 'string')
  )
}
