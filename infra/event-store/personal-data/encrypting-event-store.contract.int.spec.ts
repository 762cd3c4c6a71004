/// The encrypting decorator is an event store like any other: it passes the adapter contract over
/// the SQL store on PGlite and PostgreSQL (the foreign-process checks included), its stream reads
/// bringing their data keys as the app opens it.

import { freshPglite, freshPostgres } from '../../../tests/support/databases.js'
import { type OpenDatabase, openDatabase } from '../../db/database.js'
import { describeEventStoreContract } from '../event-store.contract.js'
import type { EventStore } from '../event-store.js'
import { createSqlEventStore } from '../sql-event-store.js'
import { withPersonalDataEncryption } from './encrypting-event-store.js'
import { createKeyring } from './keyring.js'

const SECRET = 'encrypting-contract-secret-0123456789'

const encrypting = (database: OpenDatabase, inner: EventStore): EventStore =>
  withPersonalDataEncryption(inner, createKeyring(database.db, SECRET))

describeEventStoreContract('Encrypting over SQL on PGlite', async () => {
  const db = await freshPglite()
  return { db, store: encrypting(db, createSqlEventStore(db.db, { keysWithStreams: true })) }
})

describeEventStoreContract('Encrypting over SQL on PostgreSQL', async () => {
  const db = await freshPostgres()
  const store = encrypting(
    db,
    createSqlEventStore(db.db, { listenForCommits: db.listenForCommits, keysWithStreams: true }),
  )
  return {
    db,
    store,
    async openOtherProcess() {
      const other = await openDatabase({ kind: 'postgres', url: db.url, poolSize: 2 })
      const otherStore = encrypting(other, createSqlEventStore(other.db, { keysWithStreams: true }))
      return {
        store: otherStore,
        async close() {
          await otherStore.close()
          await other.close()
        },
      }
    },
  }
})
