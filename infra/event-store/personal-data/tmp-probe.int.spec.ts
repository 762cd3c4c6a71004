import { freshPostgres } from '../../../tests/support/databases.js'
import { describeEventStoreContract } from '../event-store.contract.js'
import { createSqlEventStore } from '../sql-event-store.js'

for (let i = 0; i < 3; i++)
  describeEventStoreContract(`plain SQL on PostgreSQL without held appends ${i}`, async () => {
    const db = await freshPostgres()
    return { db, store: createSqlEventStore(db.db, { listenForeignCommits: db.listenForeignCommits }) }
  })
