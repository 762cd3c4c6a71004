/// The log every part of Tessera opens (serving, replay, the CLI, the bench): the SQL tables of the
/// configured database, or KurrentDB, always behind the personal-data encryption.

import { acceptedSecrets, type Config } from '../../infra/config/config.js'
import type { DatabaseTarget } from '../../infra/db/database.js'
import type { EventStore } from '../../infra/event-store/event-store.js'
import type { KurrentLog } from '../../infra/event-store/kurrentdb/kurrent-log.js'
import { createKurrentDbEventStore } from '../../infra/event-store/kurrentdb/kurrentdb-event-store.js'
import { withPersonalDataEncryption } from '../../infra/event-store/personal-data/encrypting-event-store.js'
import { createKeyring, type Keyring } from '../../infra/event-store/personal-data/keyring.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import type { TesseraDatabase } from '../database.js'
import { inline } from './inline-projection.js'

export const databaseTargetOf = (config: Config): DatabaseTarget =>
  config.database.kind === 'postgres'
    ? { kind: 'postgres', url: config.database.url, preparedStatements: config.database.preparedStatements }
    : { kind: 'pglite', dataDir: config.database.dataDir }

/** The event store every part of Tessera uses (serving, replay, the CLI): the SQL log, or KurrentDB
 * (EVENT_STORE=kurrentdb), with personal data sealed per user before it is written, so deleting a
 * user can erase it. `checkReachable` stops a start whose KurrentDB does not answer. */
export const openEventStore = async (
  database: TesseraDatabase,
  config: Config,
  kurrentLog?: KurrentLog,
): Promise<{ store: EventStore; keyring: Keyring; checkReachable(): Promise<void> }> => {
  const keyring = createKeyring(database.db, acceptedSecrets(config))
  if (config.eventStore.kind === 'kurrentdb') {
    const opened = kurrentLog
      ? { log: kurrentLog, checkReachable: async () => {} }
      : // Loaded only here: its gRPC client costs some 20 MB of memory that other stores never need.
        (await import('../../infra/event-store/kurrentdb/open-kurrentdb.js')).openKurrentLog(
          config.eventStore.url,
        )
    const store = createKurrentDbEventStore({ log: opened.log, inline: { db: database.db, hook: inline } })
    return {
      store: withPersonalDataEncryption(store, keyring),
      keyring,
      checkReachable: () => opened.checkReachable(),
    }
  }
  const sqlStore = createSqlEventStore(database.db, {
    ...(database.listenForCommits ? { listenForCommits: database.listenForCommits } : {}),
    inline,
    singleBackend: database.kind === 'pglite',
    keysWithStreams: true,
  })
  return { store: withPersonalDataEncryption(sqlStore, keyring), keyring, checkReachable: async () => {} }
}
