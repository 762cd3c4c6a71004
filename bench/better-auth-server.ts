/// The better-auth 1.7.5 server the benchmark measures Tessera against (issue 8), run as its own
/// process as Tessera is: email and password and the bearer plugin (Tessera answers bearer tokens
/// too), everything else at better-auth's defaults
/// (scrypt N=16384 r=16 p=1, 64-byte key, node:crypto's on libuv's thread pool; sessions read
/// from the database on every request, no cookie cache), except that its rate limiter is off as
/// Tessera's is (`RATE_LIMIT=off`) and telemetry is off.
///
///   node dist/bench/better-auth-server.js migrate   creates the tables (better-auth's getMigrations)
///   node dist/bench/better-auth-server.js serve     answers on 127.0.0.1:$PORT under /api/auth
///
/// Its database: `DATABASE_URL` (PostgreSQL, a pool of 10 connections as Tessera's), or else PGlite
/// in `PGLITE_DIR` through Tessera's own PGlite dialect (the embedded default's counterpart: same
/// engine, one connection lent to one caller at a time). Like Tessera, PGlite's initdb runs in the
/// `migrate` process so its memory does not count against serving.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { oauthProvider } from '@better-auth/oauth-provider'
import { passkey } from '@better-auth/passkey'
import { scim } from '@better-auth/scim'
import { PGlite } from '@electric-sql/pglite'
import { type BetterAuthOptions, betterAuth } from 'better-auth'
import { getMigrations } from 'better-auth/db/migration'
import { fromNodeHeaders, toNodeHandler } from 'better-auth/node'
import { bearer } from 'better-auth/plugins/bearer'
import { jwt } from 'better-auth/plugins/jwt'
import { twoFactor } from 'better-auth/plugins/two-factor'
import pg from 'pg'
import { pgliteDialect } from '../infra/db/pglite-dialect.js'

const POOL_SIZE = 10

const required = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is required`)
  return value
}

type Database = { options: BetterAuthOptions['database']; close(): Promise<void> }

const openDatabase = async (): Promise<Database> => {
  const url = process.env.DATABASE_URL
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE })
    pool.on('error', () => {})
    return { options: pool, close: () => pool.end() }
  }
  const client = await PGlite.create({ dataDir: required('PGLITE_DIR') })
  return {
    options: { dialect: pgliteDialect(client, { closeClient: false }), type: 'postgres', transaction: true },
    close: () => client.close(),
  }
}

/**
 * With BENCH_FEATURES=1 (bench/features-config.ts), the plugins of the feature scenarios, set as
 * Tessera's bench config is: the same TOTP issuer, the passkey relying party from BASE_URL, the
 * OAuth provider (on the jwt plugin it needs, whose `set-auth-jwt` header on get-session is off
 * so get-session costs what it did), and one SCIM connection with the run's token.
 */
const featurePlugins = () => {
  if (process.env.BENCH_FEATURES !== '1') return []
  const baseUrl = new URL(required('BASE_URL'))
  return [
    twoFactor({ issuer: required('BENCH_TOTP_ISSUER') }),
    passkey({ rpID: baseUrl.hostname, rpName: 'bench', origin: baseUrl.origin }),
    jwt({ disableSettingJwtHeader: true }),
    oauthProvider({
      loginPage: '/oauth/login',
      consentPage: '/oauth/consent',
      // The defaults and the machine scope of the client_credentials scenario (bench/oauth-seed.ts);
      // client privileges granted to any session, as without the hook, and the one action it guards,
      // setting `client_credentials_scopes`, which only the administrative registration does.
      scopes: ['openid', 'profile', 'email', 'offline_access', 'bench:read'],
      clientPrivileges: () => true,
    }),
    scim({
      connections: [
        {
          id: required('BENCH_SCIM_CONNECTION'),
          provisioningDomainId: required('BENCH_SCIM_ORGANIZATION'),
          credentials: [
            { type: 'bearer', id: required('BENCH_SCIM_CONNECTION'), token: required('BENCH_SCIM_TOKEN') },
          ],
        },
      ],
    }),
  ]
}

const authOptions = (database: BetterAuthOptions['database']): BetterAuthOptions => ({
  database,
  secret: required('BETTER_AUTH_SECRET'),
  baseURL: required('BASE_URL'),
  emailAndPassword: { enabled: true },
  plugins: [bearer(), ...featurePlugins()],
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
  logger: { level: 'warn' },
})

const migrate = async () => {
  const database = await openDatabase()
  try {
    const { runMigrations } = await getMigrations(authOptions(database.options))
    await runMigrations()
  } finally {
    await database.close()
  }
}

/**
 * better-auth's administrative client registration is a server-side call only; the bench reaches
 * it over HTTP at the path Tessera serves it on, as the signed-in person whose cookie comes with
 * it (the client_credentials scenario's machine client, bench/oauth-seed.ts).
 */
const ADMIN_CREATE_CLIENT = '/api/auth/admin/oauth2/create-client'

const adminCreateClient = async (
  auth: ReturnType<typeof betterAuth>,
  request: IncomingMessage,
  response: ServerResponse,
) => {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const api = auth.api as unknown as Record<string, (input: object) => Promise<unknown>>
  const create = api.adminCreateOAuthClient
  try {
    if (!create) throw new Error('the OAuth provider is off (BENCH_FEATURES=1 turns it on)')
    const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as object
    const client = await create({ body, headers: fromNodeHeaders(request.headers) })
    response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(client))
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message }))
  }
}

const serve = async () => {
  const database = await openDatabase()
  const auth = betterAuth(authOptions(database.options))
  const handler = toNodeHandler(auth)
  const server = createServer((request, response) => {
    if (request.method === 'POST' && request.url === ADMIN_CREATE_CLIENT)
      return void adminCreateClient(auth, request, response)
    return handler(request, response)
  })
  // Fastify's default (Node's own is 5 s), so both servers keep idle connections alike.
  server.keepAliveTimeout = 72_000
  await new Promise<void>((resolve) => server.listen(Number(required('PORT')), '127.0.0.1', resolve))
  const stop = () => {
    server.close()
    server.closeAllConnections()
    void database.close().finally(() => process.exit(0))
  }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
}

const command = process.argv[2]
const run = command === 'migrate' ? migrate : command === 'serve' ? serve : undefined
if (!run) {
  console.error('Usage: better-auth-server.js migrate|serve')
  process.exit(2)
}
run().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
  process.exit(1)
})
