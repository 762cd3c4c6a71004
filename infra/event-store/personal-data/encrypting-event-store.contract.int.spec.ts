/// The encrypting decorator is an event store like any other: it passes the adapter contract over
/// the SQL store on PGlite and PostgreSQL (the foreign-process checks included).

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
  return { db, store: encrypting(db, createSqlEventStore(db.db)) }
})

describeEventStoreContract('Encrypting over SQL on PostgreSQL', async () => {
  const db = await freshPostgres()
  const store = encrypting(db, createSqlEventStore(db.db, { listenForCommits: db.listenForCommits }))
  return {
    db,
    store,
    async openOtherProcess() {
      const other = await openDatabase({ kind: 'postgres', url: db.url, poolSize: 2 })
      const otherStore = encrypting(other, createSqlEventStore(other.db))
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
