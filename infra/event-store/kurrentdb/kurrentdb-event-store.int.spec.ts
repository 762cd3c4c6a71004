/// The event store contract, twice: the adapter's own logic (claims, versions, positions, the
/// inline hook's checkpoint) over an in-memory stand-in for KurrentDB, and the whole adapter against
/// a real KurrentDB when one can be had (kurrentdb-server.fixture.ts). Where none can, the second
/// suite is reported as skipped with the reason, never silently left out.

import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { freshPglite } from '../../../tests/support/databases.js'
import { describeEventStoreContract, type EventStoreFixture } from '../event-store.contract.js'
import { createInMemoryLog, type InMemoryLog } from './in-memory-log.fixture.js'
import type { KurrentLog } from './kurrent-log.js'
import { createKurrentDbEventStore } from './kurrentdb-event-store.js'
import { findKurrentDbServer, startKurrentDbContainer } from './kurrentdb-server.fixture.js'
import { openKurrentLog } from './open-kurrentdb.js'

// The contract's hook writes nothing: its checkpoint and the readAll horizon are what is exercised.
const noHook = async () => {}

/** A second process on the same log: closing it must not close the log under the first. */
const sharing = (log: InMemoryLog): KurrentLog => ({ ...log, close: async () => {} })

describeEventStoreContract(
  'KurrentDB adapter logic over an in-memory log (not a KurrentDB server)',
  async () => {
    const db = await freshPglite()
    const log = createInMemoryLog()
    const store = createKurrentDbEventStore({ log, inline: { db: db.db, hook: noHook } })
    const fixture: EventStoreFixture = {
      db,
      store,
      async openOtherProcess() {
        const other = createKurrentDbEventStore({ log: sharing(log), inline: { db: db.db, hook: noHook } })
        return { store: other, close: () => other.close() }
      },
    }
    return fixture
  },
)

const server = await findKurrentDbServer()

if (server.kind === 'none') {
  describe('KurrentDB server event store contract', () => {
    test('not run: no KurrentDB server', (context) => {
      console.warn(`The KurrentDB contract suite was not run: ${server.reason}.`)
      context.skip(`not run: ${server.reason}`)
    })
  })
} else {
  let url = server.kind === 'url' ? server.url : ''
  let stop: () => Promise<void> = async () => {}
  beforeAll(async () => {
    if (server.kind !== 'docker') return
    const started = await startKurrentDbContainer()
    url = started.url
    stop = async () => {
      await started.container.stop()
    }
  }, 180_000)
  afterAll(() => stop())

  // A namespace per test keeps tests apart on one server: every stream, and `$all` as the store
  // reads it, is under it.
  describeEventStoreContract(
    `KurrentDB server (${server.kind === 'url' ? 'KURRENTDB_URL' : 'testcontainers'})`,
    async () => {
      const db = await freshPglite()
      const namespace = `t${randomBytes(6).toString('hex')}`
      const open = async () => {
        const opened = openKurrentLog(url)
        await opened.checkReachable()
        return createKurrentDbEventStore({ log: opened.log, namespace, inline: { db: db.db, hook: noHook } })
      }
      const store = await open()
      return {
        db,
        store,
        async openOtherProcess() {
          const other = await open()
          return { store: other, close: () => other.close() }
        },
      }
    },
  )
}
