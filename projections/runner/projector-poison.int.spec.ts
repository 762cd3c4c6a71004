/// A poison event (one a projection cannot apply) in a real log: the projector retries with backoff
/// that no wake-up cuts short, halts after `maxAttempts`, records the fault for every instance,
/// tells waiters at once, and goes on after an operator's retry or skip (which a replay honours).

import { afterEach, beforeEach, expect, it } from 'vitest'
import type { OpenDatabase } from '../../infra/db/database.js'
import type { EventStore, RecordedEvent } from '../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { describeEachDatabase } from '../../tests/support/databases.js'
import {
  appendCounted,
  applications,
  COUNTED,
  countingProjection,
  createApplicationsTable,
  faultProjection,
} from '../../tests/support/projector-fixtures.js'
import { createProjector, type Projector, replay } from './projector.js'
import { clearFault, readFault, skipFaultyEvent } from './projector-faults.js'

const isPoison = (event: RecordedEvent) => event.type === COUNTED && (event.data as { n: number }).n === 13

const until = async (condition: () => boolean | Promise<boolean>, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describeEachDatabase('projector and a poison event', (fresh) => {
  let database: OpenDatabase
  let store: EventStore
  let projector: Projector
  const errors: { obj: object; msg: string }[] = []
  const logger = { error: (obj: object, msg: string) => errors.push({ obj, msg }), warn: () => {} }
  // Counts every attempt at the poison event, to show that no wake-up bypasses the backoff.
  let attempts = 0
  const fault = faultProjection((event) => {
    if (isPoison(event)) attempts += 1
    return isPoison(event)
  })

  beforeEach(async () => {
    database = await fresh()
    store = createSqlEventStore(database.db, { singleBackend: database.kind === 'pglite' })
    await createApplicationsTable(database.db)
    errors.length = 0
    attempts = 0
    fault.armed = true
    projector = createProjector({
      db: database.db,
      store,
      projections: [countingProjection('a'), fault],
      maxAttempts: 3,
      retryBaseMs: 100,
      pollIntervalMs: 50,
      logger,
      singleBackend: database.kind === 'pglite',
    })
  })
  afterEach(async () => {
    await projector.stop()
    await store.close()
    await database.close()
  })

  it('halts after maxAttempts with backoff, records the fault, and waiters hear it at once', async () => {
    await projector.start()
    await appendCounted(store, 's', [1, 2])
    const poison = await appendCounted(store, 's', [13])
    const after = await appendCounted(store, 's', [14])
    // Commits and waiters keep nudging it: none may start a run inside a backoff.
    const nudging = setInterval(() => void appendCounted(store, 'noise', [100]), 25)
    const started = Date.now()
    await until(() => projector.status().state === 'halted')
    clearInterval(nudging)
    const elapsed = Date.now() - started
    // Three failed runs. The first run's batch may hold more events: it tries the batched path,
    // then event by event (apply-batch.ts). The retries take the suspect alone (projector-roles.ts),
    // one attempt each. So three or four, never a retry storm.
    expect(attempts).toBeGreaterThanOrEqual(3)
    expect(attempts).toBeLessThanOrEqual(4)
    const attemptsAtHalt = attempts
    // Backoff 100 ms then 200 ms before the 2nd and 3rd attempts.
    expect(elapsed).toBeGreaterThanOrEqual(250)

    const status = projector.status()
    expect(status.fault).toMatchObject({ position: poison.position, projection: 'fault', attempts: 3 })
    expect(status.failuresTotal).toBe(3)
    expect(await readFault(database.db, 'read-models')).toMatchObject({ position: poison.position })
    expect(errors.some((e) => e.msg.startsWith('projector halted'))).toBe(true)
    // The events before it are applied, nothing after it.
    expect((await applications(database.db)).map((a) => a.n)).toEqual([1, 2])
    const asked = Date.now()
    expect(await projector.waitFor(after.position, 5000)).toBe(false)
    expect(Date.now() - asked).toBeLessThan(100)
    // Halted, it makes no more attempts, however many commits arrive.
    await appendCounted(store, 's', [15])
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(attempts).toBe(attemptsAtHalt)
  })

  it('a halted projector stays halted across a restart, and goes on after a retry once fixed', async () => {
    await projector.start()
    const after = await appendCounted(store, 's', [13, 14])
    await until(() => projector.status().state === 'halted')
    await projector.stop()
    await projector.start()
    expect(projector.status().state).toBe('halted')

    fault.armed = false
    // As `tessera projections retry` does it, from another process: only the database changes.
    expect(await clearFault(database.db, 'read-models')).toBe(true)
    // A halted projector answers waiters at once; it notices the cleared fault within its poll.
    await until(() => projector.status().state !== 'halted')
    expect(await projector.waitFor(after.position, 5000)).toBe(true)
    expect(projector.status().state).toBe('running')
    expect((await applications(database.db)).map((a) => a.n)).toEqual([13, 14])
  })

  it('a skip names the halted position, passes that event only, and a replay skips it too', async () => {
    await projector.start()
    const poison = await appendCounted(store, 's', [13])
    const after = await appendCounted(store, 's', [14])
    await until(() => projector.status().state === 'halted')
    await expect(
      skipFaultyEvent(database.db, 'read-models', { ...poison.position, seq: poison.position.seq + 99n }),
    ).rejects.toThrow(/halted at/)

    const skipped = await skipFaultyEvent(database.db, 'read-models', poison.position)
    expect(skipped.eventType).toBe(COUNTED)
    await until(() => projector.status().state !== 'halted')
    expect(await projector.waitFor(after.position, 5000)).toBe(true)
    expect((await applications(database.db)).map((a) => a.n)).toEqual([14])

    // The fault is still there, armed: a replay that did not know of the skip would halt on it.
    await projector.stop()
    await database.db.deleteFrom('tessera_checkpoints').execute()
    await (database.db as never as { deleteFrom(t: string): { execute(): Promise<unknown> } })
      .deleteFrom('test_applications')
      .execute()
    const position = await replay({ db: database.db, store, projections: [countingProjection('a'), fault] })
    expect(position).toEqual(after.position)
    expect((await applications(database.db)).map((a) => a.n)).toEqual([14])
  })
})
