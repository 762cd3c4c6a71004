/// `tessera export [file]` and `tessera import <file>`: the restore path across clusters (positions
/// hold PostgreSQL transaction ids, so a `pg_dump` of the log does not survive a move). See
/// log-archive.ts for what an archive holds and README "Backup and restore" for the procedure.

import { once } from 'node:events'
import { createReadStream, createWriteStream } from 'node:fs'
import type { Readable, Writable } from 'node:stream'
import { acceptedSecrets, type Config, ConfigError, loadConfig } from '../../infra/config/config.js'
import { formatPosition } from '../../infra/event-store/event-store.js'
import { readModelProjections } from '../../projections/all.js'
import { replay } from '../../projections/runner/projector.js'
import { migrateTessera, openTesseraDatabase } from '../database.js'
import { databaseTargetOf, openEventStore } from '../server/open-event-store.js'
import { exportArchive, importArchive } from './log-archive.js'

const EXPORT_USAGE = 'Usage: tessera export [file]  (stdout when no file or -)'
const IMPORT_USAGE = 'Usage: tessera import <file | ->  (into an empty database; - reads stdin)'

/** The archive reads and writes the SQL log's tables: on KurrentDB it would move nothing. */
const refuseKurrentDb = (config: Config, command: 'export' | 'import') => {
  if (config.eventStore.kind === 'kurrentdb')
    throw new ConfigError(
      'EVENT_STORE',
      `tessera ${command} works on the SQL log only; it cannot yet ${command === 'export' ? 'read from' : 'write to'} KurrentDB (EVENT_STORE=kurrentdb).`,
    )
}

/** Lines go to `sink` in order; a full buffer pauses the export instead of growing in memory. */
const writerTo = (sink: Writable) => async (line: string) => {
  if (!sink.write(line)) await once(sink, 'drain')
}

const closeSink = (sink: Writable) =>
  new Promise<void>((resolve, reject) => {
    sink.once('error', reject)
    sink.end(resolve)
  })

export const exportCommand = async (args: readonly string[]): Promise<void> => {
  if (args.length > 1) throw new ConfigError('export', EXPORT_USAGE)
  const target = args[0] && args[0] !== '-' ? args[0] : null
  const config = loadConfig()
  refuseKurrentDb(config, 'export')
  const database = await openTesseraDatabase(databaseTargetOf(config))
  try {
    await migrateTessera(database.db)
    const sink = target ? createWriteStream(target, { mode: 0o600 }) : process.stdout
    const counts = await exportArchive(database.db, writerTo(sink))
    if (target) await closeSink(sink)
    // Stdout may be the archive itself: the summary goes to stderr.
    console.error(
      `Exported ${counts.events} events, ${counts.dataKeys} data keys, ${counts.claims} claims` +
        (target ? ` to ${target}.` : '.'),
    )
  } finally {
    await database.close()
  }
}

export const importCommand = async (args: readonly string[]): Promise<void> => {
  const source = args[0]
  if (!source || args.length > 1) throw new ConfigError('import', IMPORT_USAGE)
  const config = loadConfig()
  refuseKurrentDb(config, 'import')
  const input: Readable = source === '-' ? process.stdin : createReadStream(source)
  const database = await openTesseraDatabase(databaseTargetOf(config))
  try {
    await migrateTessera(database.db)
    const imported = await importArchive(database.db, input, acceptedSecrets(config))
    console.log(
      `Imported ${imported.events} events, ${imported.dataKeys} data keys, ${imported.claims} claims, ` +
        `${imported.checkpoints} reactor checkpoints, ${imported.skips} skips (log up to ${formatPosition(imported.lastPosition)}).`,
    )
    // Replayed here, so the first server to start already answers from complete read models.
    const { store } = await openEventStore(database, config)
    try {
      const position = await replay({ db: database.db, store, projections: readModelProjections })
      console.log(`Read models rebuilt up to ${formatPosition(position)}.`)
    } finally {
      await store.close()
    }
  } finally {
    await database.close()
  }
}
