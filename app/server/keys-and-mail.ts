/// The parts of a starting Tessera that hold secrets or send mail: the data keys opened (and re-wrapped
/// after a rotation) before serving, the JWT signing keys kept current, and the mail reactor.

import type { Logger } from 'pino'
import {
  createJwtKeySet,
  type JwtKeySet,
  KEY_REFRESH_INTERVAL_MS,
} from '../../command-api/jwt/jwt-key-set.js'
import type { Config } from '../../infra/config/config.js'
import type { EventStore } from '../../infra/event-store/event-store.js'
import type { Keyring } from '../../infra/event-store/personal-data/keyring.js'
import type { MailTransport } from '../../infra/mail/mail.js'
import { createMailReactor, type MailReactor } from '../../projections/reactors/mail/mail-reactor.js'
import type { Projector } from '../../projections/runner/projector.js'
import type { TesseraDatabase } from '../database.js'
import type { AppContext } from './context.js'

/**
 * Before serving: the unique-claim key must open (a start with neither the current nor the retired
 * secret that wrapped it stops here with the reason, instead of answering 500 to every sign-up);
 * after a rotation, the data keys still under a retired secret are re-wrapped in the background.
 */
export const prepareKeys = async (keyring: Keyring, config: Config, logger: Logger): Promise<void> => {
  await keyring.prepareClaimKey()
  if (config.previousSecrets.length === 0) return
  void keyring.rewrapAll().then(
    (report) => {
      const unreadable = report.unreadable.length
      const log = unreadable > 0 ? logger.warn.bind(logger) : logger.info.bind(logger)
      log({ ...report, unreadable }, 'data keys re-wrapped under the current AUTH_SECRET')
    },
    (error: unknown) =>
      logger.warn({ err: error }, 're-wrapping data keys under the current AUTH_SECRET failed'),
  )
}

/**
 * Keys re-read when this process applies a signing-key event, or, where another process projects,
 * every few seconds.
 */
export const createTesseraJwtKeys = ({
  projector,
  projects,
  logger,
  ...ctx
}: Pick<AppContext, 'config' | 'lookups' | 'handle' | 'clock' | 'projector'> & {
  logger: Logger
  projects: boolean
}): JwtKeySet => {
  const keys = createJwtKeySet({
    ctx,
    refreshIntervalMs: projects ? null : KEY_REFRESH_INTERVAL_MS,
    logger,
  })
  if (projects)
    projector.onApplied((events) => {
      if (events.some((event) => event.type.startsWith('signing-key.'))) keys.refresh()
    })
  return keys
}

export const createTesseraMailReactor = (
  config: Config,
  logger: Logger,
  database: TesseraDatabase,
  store: EventStore,
  projector: Projector,
  transport: MailTransport,
): MailReactor =>
  createMailReactor({
    db: database.db,
    store,
    transport,
    links: {
      baseUrl: config.baseUrl,
      basePath: config.basePath,
      secret: config.secret,
      previousSecrets: config.previousSecrets,
      emailTokenExpiresIn: config.emailVerification.expiresIn,
    },
    // Only PostgreSQL can be shared by several processes; PGlite belongs to this one.
    lock: database.kind === 'postgres' ? 'advisory' : 'in-process',
    onReadModelsAdvance: projector.onApplied,
    logger,
  })
