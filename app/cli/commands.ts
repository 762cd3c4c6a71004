/// The `tessera` command's commands: `serve [--role all|api|projector]`, `migrate`, `replay`,
/// `set-password`, `jwks rotate` and the others USAGE lists. Loaded by main.ts, the entry point.

import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import pino, { type Logger } from 'pino'
import { setPassword } from '../../command-api/account/credentials.js'
import { rotateSigningKey } from '../../command-api/jwt/signing-keys.js'
import { isDomainError } from '../../domain/shared/errors.js'
import { normalizeEmail } from '../../domain/user/email.js'
import { type Config, ConfigError, loadConfig } from '../../infra/config/config.js'
import { formatPosition, parsePosition } from '../../infra/event-store/event-store.js'
import {
  clearFault,
  describeFault,
  readFault,
  skipFaultyEvent,
} from '../../projections/runner/projector-faults.js'
import { measureLag } from '../../projections/runner/projector-lag.js'
import { yieldCpuToServing } from '../../projections/runner/projector-priority.js'
import { findUserByEmail } from '../../projections/users/users.repository.js'
import {
  migrateTessera as migrateToLatest,
  type TesseraDatabase as OpenDatabase,
  openTesseraDatabase as openDatabase,
} from '../database.js'
import { databaseTargetOf, openEventStore } from '../server/open-event-store.js'
import { createTessera, type Role } from '../server/tessera.js'
import { exportCommand, importCommand } from './archive-commands.js'
import { limitHeapGrowth } from './heap-growth.js'
import { organizationCommand } from './organization-command.js'
import { replayInWorker } from './replay-in-worker.js'
import { rotateSecretCommand } from './rotate-secret-command.js'
import { webhooksCommand } from './webhooks-command.js'

const USAGE = `Usage: tessera <command>

Commands:
  serve [--role all|api|projector]  run the server (default role: all = API + projector)
  migrate                           create or update the database schema
  replay                            rebuild every read model from the event log
  set-password <email>              give a password (read from stdin) to a user who has none
  organization add-member <organizationId> <email> <role> [teamId]
                                    add a user to an organization without an invitation (server only)
  jwks rotate                       retire the current JWT signing key and create the one that signs from now on
  rotate-secret                     re-wrap every stored key under the current AUTH_SECRET (after a rotation)
  projections status                how far the read models trail the log, and why the projector halted if it did
  projections retry                 let a halted projector try its event again (after a fix)
  projections skip <tx:seq>         skip the event the projector halted on (recorded; replays skip it too)
  export [file]                     write the log, data keys and claims as NDJSON (stdout without a file)
  import <file|->                   load an export into an empty database (positions re-based), then replay
  webhooks list|add|remove|replay   webhook endpoints: add <url> <types> [--organization <id>],
                                    remove <id>, replay <id> --from <cursor|ISO time>
`

const PORTAL_DIR = fileURLToPath(new URL('../../../web/dist', import.meta.url))
const ROLES: readonly Role[] = ['all', 'api', 'projector']

const parseRole = (args: readonly string[]): Role => {
  const index = args.indexOf('--role')
  if (index === -1) return 'all'
  const value = args[index + 1]
  const role = ROLES.find((r) => r === value)
  if (!role) throw new ConfigError('--role', `--role must be one of ${ROLES.join(', ')}`)
  return role
}

const serve = async (args: readonly string[]) => {
  limitHeapGrowth()
  const config = loadConfig()
  const logger = pino({ level: config.logLevel })
  for (const warning of config.warnings) logger.warn(warning)
  const role = parseRole(args)
  // A process that only projects lets serving processes on its host have the cores first.
  if (role === 'projector') yieldCpuToServing()
  const tessera = await createTessera({ config, logger, role, portalDir: PORTAL_DIR })
  if (tessera.app) await tessera.app.listen({ host: config.host, port: config.port })
  logger.info({ role, baseUrl: config.baseUrl, database: config.database.kind }, 'Tessera is running')
  stopOnSignal(logger, () => tessera.close())
}

const stopOnSignal = (logger: Logger, close: () => Promise<void>) => {
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'stopping')
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'failed to stop cleanly')
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}

const withDatabase = async <T>(run: (database: OpenDatabase, config: Config) => Promise<T>) => {
  const config = loadConfig()
  const database = await openDatabase(databaseTargetOf(config))
  try {
    return await run(database, config)
  } finally {
    await database.close()
  }
}

const readStdin = async (): Promise<string> => {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '')
}

/** Server-side only (spec): here, and for backends over the server API (POST /set-password with a server key). */
const setPasswordCommand = async (args: readonly string[]) => {
  const email = args[0]
  if (!email)
    throw new ConfigError('set-password', 'Usage: tessera set-password <email>  (password on stdin)')
  const config = loadConfig()
  const logger = pino({ level: 'warn' })
  const tessera = await createTessera({ config, logger, role: 'projector' })
  try {
    const user = await findUserByEmail(tessera.ctx.db, normalizeEmail(email))
    if (!user) throw new Error(`No user with the email ${email}`)
    const origin = { requestId: randomUUID(), ip: null, userAgent: 'tessera-cli' }
    await setPassword(tessera.ctx, origin, { userId: user.id, newPassword: await readStdin() })
    if (tessera.ctx.readYourWrites.settle(origin.requestId))
      console.warn('The read models do not show it yet (see `tessera projections status`).')
    console.log(`Password set for ${user.email}.`)
  } finally {
    await tessera.close()
  }
}

/** A retired key stays in /jwks until the tokens it signed have expired (docs/architecture.md). */
const jwksCommand = async (args: readonly string[]) => {
  if (args[0] !== 'rotate' || args.length > 1) throw new ConfigError('jwks', 'Usage: tessera jwks rotate')
  const config = loadConfig()
  const tessera = await createTessera({ config, logger: pino({ level: 'warn' }), role: 'projector' })
  try {
    const origin = { requestId: randomUUID(), ip: null, userAgent: 'tessera-cli' }
    const { kid, retired } = await rotateSigningKey(tessera.ctx, origin)
    console.log(
      `New JWT signing key ${kid} (${config.jwt.algorithm}).` +
        (retired ? ` Retired ${retired}: published until its last token expires.` : ''),
    )
    if (tessera.ctx.readYourWrites.settle(origin.requestId))
      console.warn('The read models do not show it yet (see `tessera projections status`).')
  } finally {
    await tessera.close()
  }
}

const PROJECTIONS_USAGE = 'Usage: tessera projections status | retry | skip <tx:seq>'
const GROUP = 'read-models'

/** Acts on the database (status also reads the end of the log from the event store): a running
 * projector notices within its poll interval. */
const projectionsCommand = (args: readonly string[]) =>
  withDatabase(async (database, config) => {
    const { db } = database
    await migrateToLatest(db)
    const [action, argument] = args
    if (action === 'status') {
      // The end of the log is the event store's: on KurrentDB it is not in this database.
      const { store, checkReachable } = await openEventStore(database, config)
      await checkReachable().catch(async (error: unknown) => {
        await store.close().catch(() => {})
        throw error
      })
      const [fault, lag] = await Promise.all([readFault(db, GROUP), measureLag(db, store, GROUP)]).finally(
        () => store.close(),
      )
      console.log(`${GROUP}: ${fault ? 'HALTED' : 'running'} at ${formatPosition(lag.checkpoint)}`)
      if (fault) console.log(`  ${describeFault(fault)}`)
      console.log(
        `  behind: ${lag.behindEvents} events, ${lag.behindSeconds.toFixed(1)} s; held back by a running transaction: ${lag.heldByHorizon}; oldest transaction: ${lag.oldestTransactionSeconds?.toFixed(1) ?? '?'} s`,
      )
      if (fault) process.exitCode = 3
      return
    }
    if (action === 'retry' && args.length === 1) {
      console.log(
        (await clearFault(db, GROUP))
          ? `${GROUP}: fault cleared; the projector tries again.`
          : `${GROUP} is not halted.`,
      )
      return
    }
    const position = action === 'skip' && args.length === 2 ? parsePosition(argument ?? '') : null
    if (!position) throw new ConfigError('projections', PROJECTIONS_USAGE)
    const fault = await skipFaultyEvent(db, GROUP, position).catch((error: unknown) => {
      throw new ConfigError('projections', error instanceof Error ? error.message : String(error))
    })
    console.log(`${GROUP}: skipped ${formatPosition(fault.position)} (${fault.eventType}, ${fault.eventId}).`)
  })

const commands: Record<string, (args: readonly string[]) => Promise<void>> = {
  serve,
  'set-password': setPasswordCommand,
  jwks: jwksCommand,
  organization: organizationCommand,
  projections: projectionsCommand,
  'rotate-secret': rotateSecretCommand,
  export: exportCommand,
  import: importCommand,
  webhooks: webhooksCommand,
  migrate: () =>
    withDatabase(async ({ db }) => {
      await migrateToLatest(db)
      console.log('Migrations applied.')
    }),
  replay: async () => {
    // Read here first so that a bad setting is told as one (an error from the thread comes back as a
    // plain Error); the thread, with a larger young generation (replay-in-worker.ts), reads it again.
    loadConfig()
    const { position } = await replayInWorker()
    console.log(`Read models rebuilt up to ${position.tx}:${position.seq}.`)
  },
}

const main = async () => {
  const [name = '', ...args] = process.argv.slice(2)
  const command = commands[name]
  if (!command) {
    process.stdout.write(USAGE)
    process.exit(name === '' || name === '--help' ? 0 : 2)
  }
  await command(args)
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`)
  else if (isDomainError(error)) console.error(`${error.code}: ${error.message}`)
  else console.error(error)
  process.exit(1)
})
