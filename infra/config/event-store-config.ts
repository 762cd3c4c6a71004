/// Which log Tessera writes: the SQL tables (PostgreSQL or PGlite) or KurrentDB.

import { ConfigError } from './config-error.js'
import type { Get } from './env-values.js'

/** The SQL log (the tables of `database`), or KurrentDB (EVENT_STORE=kurrentdb, KURRENTDB_URL). */
export type EventStoreConfig = { kind: 'sql' } | { kind: 'kurrentdb'; url: string }

// The client's schemes (kurrentdb, kurrent, kdb, esdb; `+discover` for a cluster by DNS) and a host.
const KURRENTDB_URL = /^(?:kurrentdb|kurrent|kdb|esdb)(?:\+discover)?:\/\/[^\s/?#]+/

/**
 * The SQL log (PostgreSQL, or PGlite embedded) by default; KurrentDB on request, with its URL.
 * Whether the server answers is checked when Tessera starts (app/server/tessera.ts).
 */
export const parseEventStore = (get: Get, kind: string, warnings: string[]): EventStoreConfig => {
  if (kind === 'postgres') {
    if (get('KURRENTDB_URL') !== undefined)
      warnings.push(
        'KURRENTDB_URL is set but EVENT_STORE is not "kurrentdb": the log stays in PostgreSQL (or PGlite).',
      )
    return { kind: 'sql' }
  }
  if (kind !== 'kurrentdb')
    throw new ConfigError('EVENT_STORE', `EVENT_STORE must be "postgres" or "kurrentdb" (got "${kind}")`)
  const url = get('KURRENTDB_URL')
  if (url === undefined)
    throw new ConfigError(
      'KURRENTDB_URL',
      'KURRENTDB_URL is required with EVENT_STORE=kurrentdb (for example kurrentdb://localhost:2113?tls=false)',
    )
  // Never echoed: it may hold a password.
  if (!KURRENTDB_URL.test(url))
    throw new ConfigError(
      'KURRENTDB_URL',
      'KURRENTDB_URL must be a KurrentDB connection string starting with kurrentdb:// or kurrentdb+discover:// and naming a host',
    )
  warnings.push(
    'EVENT_STORE=kurrentdb: the KurrentDB event store is experimental; it has not yet run against a real KurrentDB server in this project\'s tests (docs/architecture.md, "KurrentDB").',
  )
  return { kind: 'kurrentdb', url }
}
