/// Unique claims on KurrentDB across a crash between their steps (claims.ts): the reservation, the
/// owner's append and the release are three writes to three streams, and whichever step a crash
/// stops, the claim comes out right. The crash is injected into the in-memory stand-in for the
/// server (a write refused, or written with its answer lost), and the clock is moved past the grace
/// period by hand. This tests the adapter's logic, not KurrentDB.

import { describe, expect, test } from 'vitest'
import { anEvent } from '../event-store.contract-support.js'
import { UniqueClaimConflictError } from '../event-store.js'
import { createInMemoryLog, type InMemoryLog } from './in-memory-log.fixture.js'
import { AppendOutcomeUnknownError, createKurrentDbEventStore } from './kurrentdb-event-store.js'

const GRACE_MS = 1000
const EMAIL = 'user.email'
const SLUG = 'organization.slug'

const setup = () => {
  let clock = Date.parse('2026-11-25T12:00:00Z')
  const now = () => clock
  const log = createInMemoryLog(now)
  const store = createKurrentDbEventStore({ log, now, claimGraceMs: GRACE_MS, appendDeadlineMs: 100 })
  return { log, store, advance: (ms: number) => (clock += ms) }
}

/** Every write to a stream under `prefix` fails as a lost connection does: outcome unknown. */
const unavailable = (log: InMemoryLog, prefix: string, when: 'before' | 'after') => {
  const hook = (stream: string) => {
    if (stream.startsWith(prefix)) throw Object.assign(new Error('connection lost'), { type: 'unavailable' })
  }
  if (when === 'before') log.beforeAppend = hook
  else log.afterAppend = hook
}

const heal = (log: InMemoryLog) => {
  log.beforeAppend = null
  log.afterAppend = null
}

const claim = (value: string, owner: string, scope = EMAIL) => ({ op: 'claim' as const, scope, value, owner })
const release = (value: string, owner: string, scope = EMAIL) => ({
  op: 'release' as const,
  scope,
  value,
  owner,
})

describe('unique claims on KurrentDB across a crash', () => {
  test('the claimer dies after reserving, before its append: the value holds for the grace period, then is free', async () => {
    const { log, store, advance } = setup()
    unavailable(log, 'tessera/', 'before')
    const lost = store.appendToStream('user-a', [anEvent()], {
      expectedVersion: 'no_stream',
      uniqueClaims: [claim('ada@example.com', 'user-a')],
    })
    await expect(lost).rejects.toBeInstanceOf(AppendOutcomeUnknownError)
    heal(log)
    expect(await store.readStream('user-a')).toEqual([])

    // Its append might still land: nobody else may take the value yet.
    expect(await store.claimOwner(EMAIL, 'ada@example.com')).toBe('user-a')
    const early = store.appendToStream('user-b', [anEvent()], {
      expectedVersion: 'no_stream',
      uniqueClaims: [claim('ada@example.com', 'user-b')],
    })
    await expect(early).rejects.toBeInstanceOf(UniqueClaimConflictError)

    advance(GRACE_MS + 1)
    expect(await store.claimOwner(EMAIL, 'ada@example.com')).toBeNull()
    await store.appendToStream('user-b', [anEvent()], {
      expectedVersion: 'no_stream',
      uniqueClaims: [claim('ada@example.com', 'user-b')],
    })
    expect(await store.claimOwner(EMAIL, 'ada@example.com')).toBe('user-b')
  })

  test('an append whose answer was lost is retried with the same event ids: written once, the claim held', async () => {
    const { log, store, advance } = setup()
    let lostAnswers = 0
    log.afterAppend = (stream) => {
      if (stream.startsWith('tessera/') && lostAnswers++ === 0)
        throw Object.assign(new Error('deadline exceeded'), { type: 'deadline-exceeded' })
    }
    const event = anEvent()
    const result = await store.appendToStream('user-a', [event], {
      expectedVersion: 'no_stream',
      uniqueClaims: [claim('ada@example.com', 'user-a')],
    })
    expect(result.nextVersion).toBe(1)
    expect((await store.readStream('user-a')).map((recorded) => recorded.id)).toEqual([event.id])
    advance(GRACE_MS * 10)
    expect(await store.claimOwner(EMAIL, 'ada@example.com')).toBe('user-a')
  })

  test('the owner dies after its append released a value, before the release was written: the value is free', async () => {
    const { log, store } = setup()
    await store.appendToStream('user-a', [anEvent()], {
      expectedVersion: 'no_stream',
      uniqueClaims: [claim('old@example.com', 'user-a')],
    })
    // An email change in two appends: the new address claimed, then the old one released.
    await store.appendToStream('user-a', [anEvent()], {
      expectedVersion: 1,
      uniqueClaims: [claim('new@example.com', 'user-a')],
    })
    unavailable(log, 'tessera.claims/', 'before')
    // The append itself lands; the release after it cannot be written. The command still succeeds.
    await store.appendToStream('user-a', [anEvent()], {
      expectedVersion: 2,
      uniqueClaims: [release('old@example.com', 'user-a')],
    })
    heal(log)
    expect(await store.claimOwner(EMAIL, 'old@example.com')).toBeNull()
    expect(await store.claimOwner(EMAIL, 'new@example.com')).toBe('user-a')
    await store.appendToStream('user-b', [anEvent()], {
      expectedVersion: 'no_stream',
      uniqueClaims: [claim('old@example.com', 'user-b')],
    })
    expect(await store.claimOwner(EMAIL, 'old@example.com')).toBe('user-b')
  })

  test('a transfer whose append never landed gives the value back to its holder after the grace period', async () => {
    const { log, store, advance } = setup()
    await store.appendToStream('organization-1', [anEvent()], {
      expectedVersion: 'no_stream',
      uniqueClaims: [claim('acme', 'organization-1', SLUG)],
    })
    // Another organization takes the slug over in an append that releases the holder's claim (as
    // a link releases a deleted user's provider account), and dies before its append lands.
    unavailable(log, 'tessera/organization-2', 'before')
    const lost = store.appendToStream('organization-2', [anEvent()], {
      expectedVersion: 'no_stream',
      uniqueClaims: [release('acme', 'organization-1', SLUG), claim('acme', 'organization-2', SLUG)],
    })
    await expect(lost).rejects.toBeInstanceOf(AppendOutcomeUnknownError)
    heal(log)
    advance(GRACE_MS + 1)
    expect(await store.claimOwner(SLUG, 'acme')).toBe('organization-1')
    const taken = store.appendToStream('organization-3', [anEvent()], {
      expectedVersion: 'no_stream',
      uniqueClaims: [claim('acme', 'organization-3', SLUG)],
    })
    await expect(taken).rejects.toBeInstanceOf(UniqueClaimConflictError)
  })

  test('a definite refusal of the append undoes the reservation at once, with no grace period', async () => {
    const { log, store } = setup()
    log.beforeAppend = (stream) => {
      if (stream.startsWith('tessera/')) throw new Error('access denied')
    }
    const refused = store.appendToStream('user-a', [anEvent()], {
      expectedVersion: 'no_stream',
      uniqueClaims: [claim('ada@example.com', 'user-a')],
    })
    await expect(refused).rejects.toThrow('access denied')
    heal(log)
    expect(await store.claimOwner(EMAIL, 'ada@example.com')).toBeNull()
  })
})
