/// Unique claims on KurrentDB, the process (the rules are in reservations.ts). An append with
/// claims runs in three steps, none of which can leave a claim wrong for long:
///
/// 1. `reserve`: each claimed value's reservation stream gets `claim.reserved` under the stream's
///    current revision (one of two concurrent claimers wins). Each write remembers how to undo it.
/// 2. The owning append (kurrentdb-event-store.ts). It fails definitely (a stale version): `undo`
///    restores what step 1 displaced, under the revision step 1 wrote, so a later writer wins.
///    Its outcome is unknown (a timeout): nothing is undone; the reservation is confirmed if the
///    append landed and is orphaned after the grace period if it did not.
/// 3. `release`: each released value gets `claim.released` if its owner still holds it. A crash
///    before this leaves the release recorded in the owner's stream, which reads as free.

import { type UniqueClaim, UniqueClaimConflictError } from '../event-store.js'
import { claimOperationsOf } from './envelope.js'
import type { KurrentLog, LogRecord, NewRecord, StreamState } from './kurrent-log.js'
import { StreamStateMismatch } from './kurrent-log.js'
import {
  decideClaim,
  type Holder,
  isReservation,
  judge,
  RELEASED,
  RESERVED,
  type Released,
  type Reservation,
  releaseApplies,
} from './reservations.js'
import type { StreamNames } from './stream-names.js'

/** Writers racing on one value re-read and decide again this many times before giving up. */
const ATTEMPTS = 5

export type ClaimsOptions = {
  log: KurrentLog
  names: StreamNames
  /** How long an unconfirmed reservation holds before it counts as orphaned. */
  graceMs: number
  now?: () => number
}

/** How to put a reservation stream back as it was: `restore` under the revision we wrote. */
type Undo = { stream: string; revision: bigint; restore: NewRecord }

export type Reserved = { undo: readonly Undo[]; transferred: ReadonlySet<UniqueClaim> }

type CurrentState = { revision: StreamState; reservation: Reservation | null; created: Date | null }

export const createClaims = ({ log, names, graceMs, now = Date.now }: ClaimsOptions) => {
  const stateOf = (last: LogRecord | null): CurrentState => ({
    revision: last ? last.revision : 'no_stream',
    reservation: last?.type === RESERVED && isReservation(last.data) ? last.data : null,
    created: last?.created ?? null,
  })

  const ownerRecords = async (stream: string) =>
    (await log.readStream(names.eventStream(stream))).map((record) => ({
      id: record.id,
      claims: claimOperationsOf(record),
    }))

  /** Who holds the value, looking through a reservation that was orphaned to the one it displaced. */
  const holderOf = async (state: CurrentState): Promise<Holder | null> => {
    let candidate = state.reservation
    const ageMs = state.created ? now() - state.created.getTime() : Number.POSITIVE_INFINITY
    for (let depth = 0; candidate && depth < 2; depth++) {
      const records = candidate.stream === null ? [] : await ownerRecords(candidate.stream)
      const verdict = judge(candidate, records, ageMs, graceMs)
      if (verdict === 'held' || verdict === 'pending') return { reservation: candidate, verdict }
      if (verdict === 'released-in-log') return null
      candidate = candidate.replaces
    }
    return null
  }

  const current = async (scope: string, value: string) =>
    stateOf(await log.readLast(names.claimStream(scope, value)))

  const reservedRecord = (reservation: Reservation): NewRecord => ({
    id: crypto.randomUUID(),
    type: RESERVED,
    data: reservation,
    metadata: {},
  })

  const releasedRecord = (released: Released): NewRecord => ({
    id: crypto.randomUUID(),
    type: RELEASED,
    data: released,
    metadata: {},
  })

  const undo = async (undos: readonly Undo[]): Promise<void> => {
    for (const step of [...undos].reverse()) {
      try {
        await log.append(step.stream, [{ ...step.restore, id: crypto.randomUUID() }], step.revision)
      } catch {
        // Someone wrote after us (their write stands), or the server is away: the reservation then
        // stays unconfirmed and counts as orphaned after the grace period. Either way nothing waits.
      }
    }
  }

  return {
    async ownerOf(scope: string, value: string): Promise<string | null> {
      return (await holderOf(await current(scope, value)))?.reservation.owner ?? null
    },

    /** Step 1. Throws `UniqueClaimConflictError` (having undone its own writes) on a taken value. */
    async reserve(operations: readonly UniqueClaim[], stream: string, intent: string): Promise<Reserved> {
      const undos: Undo[] = []
      const transferred = new Set<UniqueClaim>()
      try {
        for (const claim of operations) {
          if (claim.op !== 'claim') continue
          const claimStream = names.claimStream(claim.scope, claim.value)
          for (let attempt = 1; ; attempt++) {
            const state = await current(claim.scope, claim.value)
            const holder = await holderOf(state)
            const decision = decideClaim(claim, holder, operations)
            if (decision.kind === 'keep') break
            if (decision.kind === 'conflict') throw new UniqueClaimConflictError(claim.scope, claim.value)
            const reservation: Reservation = { ...claim, stream, intent, replaces: decision.replaces }
            try {
              const written = await log.append(claimStream, [reservedRecord(reservation)], state.revision)
              const restore = holder
                ? reservedRecord(holder.reservation)
                : releasedRecord({ ...claim, reason: 'compensated' })
              undos.push({ stream: claimStream, revision: written.nextRevision, restore })
              if (holder && holder.reservation.owner !== claim.owner) {
                for (const op of operations)
                  if (op.op === 'release' && op.scope === claim.scope && op.value === claim.value)
                    transferred.add(op)
              }
              break
            } catch (error) {
              if (!(error instanceof StreamStateMismatch)) throw error
              // Another claimer wrote first: look again (it may be this owner's, or free once more).
              if (attempt >= ATTEMPTS) throw new UniqueClaimConflictError(claim.scope, claim.value)
            }
          }
        }
      } catch (error) {
        await undo(undos)
        throw error
      }
      return { undo: undos, transferred }
    },

    /** After a definite failure of the owning append. */
    undo: (reserved: Reserved) => undo(reserved.undo),

    /**
     * Step 3. Never fails: the owner's append has landed, and failing now would only make the
     * caller retry a write that happened. What it could not write is left to the repair (the
     * release is in the owner's stream, which reads as free).
     */
    async release(operations: readonly UniqueClaim[], reserved: Reserved): Promise<void> {
      for (const release of operations) {
        if (release.op !== 'release' || reserved.transferred.has(release)) continue
        const claimStream = names.claimStream(release.scope, release.value)
        try {
          for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
            const state = await current(release.scope, release.value)
            if (!releaseApplies(release, state.reservation)) break
            try {
              await log.append(
                claimStream,
                [releasedRecord({ ...release, reason: 'released' })],
                state.revision,
              )
              break
            } catch (error) {
              if (!(error instanceof StreamStateMismatch)) throw error
            }
          }
        } catch {
          // Left to the repair, as above.
        }
      }
    },
  }
}

export type Claims = ReturnType<typeof createClaims>
