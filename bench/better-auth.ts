/// better-auth 1.7.5 beside Tessera in the same run (issue 8): bench/better-auth-server.ts started as
/// its own process on the same database server as Tessera, in a database of its own. On PostgreSQL
/// that is `betterauth` on the same server (created when missing; run-unique emails make a reused
/// one harmless, as for Tessera's); on the embedded default, PGlite in a fresh directory.

import { randomBytes } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { betterAuthFeatureEnv } from './features-config.js'
import { baseServerEnv, freePort, type RunningServer, startProgram } from './server.js'
import { rememberSecret } from './server-secrets.js'

const SCRIPT = fileURLToPath(new URL('./better-auth-server.js', import.meta.url))
export const BETTER_AUTH_DATABASE = 'betterauth'

/** PostgreSQL: the URL Tessera uses (any database on that server); absent: PGlite. */
export type BetterAuthOptions = {
  postgresUrl?: string
  /** With the feature plugins (two-factor, passkey, OAuth provider, SCIM; bench/features-config.ts). */
  features?: boolean
}

/** The same server and credentials, the `betterauth` database. */
export const betterAuthDatabaseUrl = (postgresUrl: string): string => {
  const url = new URL(postgresUrl)
  url.pathname = `/${BETTER_AUTH_DATABASE}`
  return url.toString()
}

const createDatabaseIfMissing = async (postgresUrl: string): Promise<void> => {
  const client = new pg.Client({ connectionString: postgresUrl })
  await client.connect()
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [BETTER_AUTH_DATABASE])
    if (found.rowCount === 0) await client.query(`create database ${BETTER_AUTH_DATABASE}`)
  } catch (error) {
    throw new Error(
      `could not create the database "${BETTER_AUTH_DATABASE}" for better-auth (${error instanceof Error ? error.message : String(error)}); ` +
        'create it, or set BENCH_BETTER_AUTH=0',
    )
  } finally {
    await client.end()
  }
}

export const startBetterAuth = async (options: BetterAuthOptions): Promise<RunningServer> => {
  if (options.postgresUrl) await createDatabaseIfMissing(options.postgresUrl)
  const workDir = await mkdtemp(join(tmpdir(), 'better-auth-bench-'))
  const port = await freePort()
  return startProgram({
    label: 'better-auth',
    script: SCRIPT,
    workDir,
    port,
    env: {
      ...baseServerEnv(port),
      BETTER_AUTH_SECRET: rememberSecret('better-auth', port, randomBytes(24).toString('hex')),
      ...(options.features ? betterAuthFeatureEnv() : {}),
      ...(options.postgresUrl
        ? { DATABASE_URL: betterAuthDatabaseUrl(options.postgresUrl) }
        : { PGLITE_DIR: join(workDir, 'pglite') }),
    },
    nodeArgs: [],
  })
}
