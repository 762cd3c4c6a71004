/// Assembles a running Tessera: database (migrated), event store, projector, session resolver and
/// the HTTP app. Roles: `all` (default: serves and projects), `api` (serves; another process
/// projects), `projector` (projects only).

import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { createApiKeyCache } from '../../command-api/api-key/api-key-cache.js'
import { apiKeySessionsFor } from '../../command-api/api-key/api-key-sessions.js'
import { createApiKeyUses } from '../../command-api/api-key/api-key-uses.js'
import type { PersonKeys } from '../../command-api/context.js'
import type { JwtKeySet } from '../../command-api/jwt/jwt-key-set.js'
import { createOAuthProviderCache, trustedWhile } from '../../command-api/oauth-provider/provider-cache.js'
import { organizationPolicy } from '../../command-api/organization/organization-command.js'
import type { ScimTeamReconciler } from '../../command-api/scim/scim-team-reconciler.js'
import { sessionUpkeepFor } from '../../command-api/sessions/session-upkeep.js'
import { createHandle } from '../../command-api/shared/handle.js'
import { createReadYourWrites } from '../../command-api/shared/read-your-writes.js'
import { secondFactorsOf } from '../../command-api/two-factor/second-factors.js'
import { organizationDecider } from '../../domain/organization/organization.js'
import { serverKeyGuardsFor } from '../../http/guards/server-key.js'
import { createSessionResolver } from '../../http/sessions/resolve-session.js'
import { createSessionCache } from '../../http/sessions/session-cache.js'
import { createSessionUsage } from '../../http/sessions/session-usage.js'
import type { Config } from '../../infra/config/config.js'
import type { EventStore } from '../../infra/event-store/event-store.js'
import type { KurrentLog } from '../../infra/event-store/kurrentdb/kurrent-log.js'
import { eraseSubject, stillReadable } from '../../infra/event-store/personal-data/erasure.js'
import { type Keyring, SubjectErasedError } from '../../infra/event-store/personal-data/keyring.js'
import { brandedTransport } from '../../infra/mail/branded-transport.js'
import { createMailTransport } from '../../infra/mail/create-transport.js'
import { processRuntime } from '../../infra/runtime/runtime-metrics.js'
import { readModelProjections } from '../../projections/all.js'
import { countPasskeysOfUser } from '../../projections/passkeys/passkeys.repository.js'
import type { MailReactor } from '../../projections/reactors/mail/mail-reactor.js'
import type { WebhookReactor } from '../../projections/reactors/webhooks/webhook-reactor.js'
import { catchUpPacing } from '../../projections/runner/catch-up-pacing.js'
import { createProjector, type Projector } from '../../projections/runner/projector.js'
import { claimSamlAssertion } from '../../projections/sso-saml/saml-assertion-claims.js'
import { createReadiness } from '../../query-api/health/readiness.js'
import { migrateTessera, openTesseraDatabase, type TesseraDatabase } from '../database.js'
import { type BuildAppOptions, buildApp } from './app.js'
import { evictingOnAppend, keyCacheTrustedWhileProjecting, trustedWhileProjecting } from './cache-rules.js'
import { commandLookupsOver } from './command-lookups.js'
import type { AppContext } from './context.js'
import { createTesseraJwtKeys, createTesseraMailReactor, prepareKeys } from './keys-and-mail.js'
import { databaseTargetOf, openEventStore } from './open-event-store.js'
import { createTesseraScimTeamReconciler } from './scim-team-reconciler-wiring.js'
import { createTesseraWebhookReactor } from './webhook-wiring.js'

export type Role = 'all' | 'api' | 'projector'

export type TesseraOptions = {
  config: Config
  logger: Logger
  role?: Role
  /** An already open database to use instead of the one the config names; closed with Tessera. */
  database?: TesseraDatabase
  portalDir?: string | null
  /** When route schemas are compiled (BuildAppOptions); on first use unless a test asks. */
  compileSchemas?: BuildAppOptions['compileSchemas']
  clock?: () => Date
  /** With EVENT_STORE=kurrentdb, a log to use instead of connecting to KURRENTDB_URL (tests). */
  kurrentLog?: KurrentLog
}

export type Tessera = {
  app: FastifyInstance | null
  ctx: AppContext
  database: TesseraDatabase
  store: EventStore
  /** Per-user data keys of the personal data in the log; `eraseSubject` destroys one. */
  keyring: Keyring
  projector: Projector
  /** Sends the mails events ask for; null where this process does not project (`--role api`). */
  mailReactor: MailReactor | null
  /** The JWT key set this process signs with; null when JWTs are off or nothing is served. */
  jwtKeys: JwtKeySet | null
  /** Delivers events to webhook endpoints; null where this process does not project. */
  webhookReactor: WebhookReactor | null
  /** Has a SCIM group's team catch up after a crash; only on KurrentDB, where this process projects. */
  scimTeamReconciler: ScimTeamReconciler | null
  close(): Promise<void>
}

export const createTessera = async (options: TesseraOptions): Promise<Tessera> => {
  const { config, logger, role = 'all', clock = () => new Date() } = options
  const database = options.database ?? (await openTesseraDatabase(databaseTargetOf(config)))
  await migrateTessera(database.db)
  const opened = await openEventStore(database, config, options.kurrentLog)
  const { keyring } = opened
  const prepared = async () => {
    await opened.checkReachable()
    await prepareKeys(keyring, config, logger)
  }
  await prepared().catch(async (error: unknown) => {
    await opened.store.close().catch(() => {})
    await database.close().catch(() => {})
    throw error
  })
  const projects = role !== 'api'
  const projector = createProjector({
    db: database.db,
    store: opened.store,
    projections: readModelProjections,
    mode: projects ? 'apply' : 'follow',
    maxAttempts: config.consistency.projectorMaxAttempts,
    logger,
    singleBackend: database.kind === 'pglite',
    // A process that only projects makes room for the servers beside it while far behind.
    pacing: role === 'projector' ? catchUpPacing(config.consistency.projectorCatchUpShare) : null,
  })
  // The cache is exact only where this process applies the events that evict from it.
  const cache = projects ? createSessionCache() : null
  if (cache) projector.onApplied((events) => cache.evictFor(events))
  // API keys by hash follow the same rule (command-api/api-key/api-key-cache.ts).
  const keyCache = projects ? createApiKeyCache() : null
  if (keyCache) projector.onApplied((events) => keyCache.evictFor(events))
  // And the OpenID provider's clients and live tokens (command-api/oauth-provider/provider-cache.ts).
  const providerCache = projects ? createOAuthProviderCache() : null
  if (providerCache) projector.onApplied((events) => providerCache.evictFor(events))
  const store = cache
    ? evictingOnAppend(opened.store, [
        cache,
        ...(keyCache ? [keyCache] : []),
        ...(providerCache ? [providerCache] : []),
      ])
    : opened.store
  const sessions = createSessionResolver(
    database.db,
    {
      secret: config.secret,
      previousSecrets: config.previousSecrets,
      secure: config.secureCookies,
      expiresIn: config.session.expiresIn,
    },
    cache && trustedWhileProjecting(cache, projector),
    createSessionUsage({
      db: database.db,
      sessionLifetimeSeconds: config.session.expiresIn,
      onError: (error) => logger.warn({ err: error }, 'recording a session use failed'),
    }),
  )
  const readYourWrites = createReadYourWrites({ projector, boundMs: config.consistency.readYourWritesMs })
  const handle = createHandle({
    store,
    projector,
    readYourWrites,
    onStaleRead: (stream) => logger.warn({ stream }, 'read models lag behind a command; answering 503'),
    foldedStates: { stillReadable: stillReadable(keyring) },
  })
  // Crypto-shredding: with the user's data key gone, their personal data in the log is unreadable.
  const eraseUser = (userId: string) => eraseSubject(keyring, userId)
  const personKeys: PersonKeys = {
    claimKey: () => keyring.claimKey(),
    canSeal: (subject) =>
      keyring.keyFor(subject).then(
        () => true,
        (error: unknown) => (error instanceof SubjectErasedError ? false : Promise.reject(error)),
      ),
  }
  const lookups = commandLookupsOver(database.db)
  const jwtKeys =
    role !== 'projector' && config.jwt.enabled
      ? createTesseraJwtKeys({ config, logger, lookups, handle, clock, projector, projects })
      : null
  const apiKeyUses = createApiKeyUses(
    () => ctx,
    (error, doing) => logger.warn({ err: error }, `${doing} failed`),
  )
  const apiKeyCache = keyCache && keyCacheTrustedWhileProjecting(keyCache, projector)
  const organizations = organizationDecider(organizationPolicy(config))
  const ctx: AppContext = {
    config,
    db: database.db,
    store,
    projector,
    handle,
    sessions,
    clock,
    eraseUser,
    personKeys,
    apiKeyCache,
    apiKeyUses,
    organizations,
    sessionUpkeep: sessionUpkeepFor({
      config,
      db: database.db,
      store,
      handle,
      sessions,
      clock,
      eraseUser,
      personKeys,
      apiKeyCache,
      apiKeyUses,
      organizations,
      lookups,
    }),
    jwt: jwtKeys,
    serverApi: serverKeyGuardsFor(config, clock, logger),
    apiKeySessions: config.apiKey.enableSessionForAPIKeys ? apiKeySessionsFor(() => ctx) : null,
    // Passkeys count as a second factor once their feature passes its count here (null: none yet).
    secondFactors: secondFactorsOf(store, (userId) => countPasskeysOfUser(database.db, userId)),
    samlAssertionClaims: (claimId, expiresAt, now) =>
      claimSamlAssertion(database.db, claimId, expiresAt, now),
    oauthCache: providerCache && trustedWhile(providerCache, () => projector.status().state === 'running'),
    readYourWrites,
    lookups,
    readiness: createReadiness({
      db: database.db,
      store,
      projector,
      maxLagSeconds: config.consistency.readyMaxLagSeconds,
      // Only an instance that answers HTTP offers /metrics.
      ...(role !== 'projector' ? { runtime: processRuntime() } : {}),
    }),
  }
  const mailTransport = projects
    ? brandedTransport(createMailTransport(config.mail, logger), config.branding.productName)
    : null
  const mailReactor =
    mailTransport && createTesseraMailReactor(config, logger, database, store, projector, mailTransport)
  const webhookReactor =
    mailTransport &&
    createTesseraWebhookReactor({
      config,
      logger,
      database,
      store,
      projector,
      transport: mailTransport,
      clock,
    })
  const scimTeamReconciler = projects
    ? createTesseraScimTeamReconciler({ config, logger, database, store, projector, organizations, clock })
    : null
  const stopWorkers = async () => {
    jwtKeys?.stop()
    await scimTeamReconciler?.stop()
    await apiKeyUses.stop()
    await mailReactor?.stop()
    await webhookReactor?.stop()
    await ctx.serverApi.close()
    await mailTransport?.close?.()
    await projector.stop()
    await store.close()
    await database.close()
  }
  let app: FastifyInstance | null = null
  try {
    await projector.start()
    await mailReactor?.start()
    await webhookReactor?.start()
    scimTeamReconciler?.start()
    apiKeyUses.start()
    // Server-key limits shared through Redis (REDIS_URL); a wrong URL stops the start here.
    if (role !== 'projector') await ctx.serverApi.open()
    if (role !== 'projector')
      app = await buildApp(ctx, {
        logger,
        portalDir: options.portalDir ?? null,
        ...(options.compileSchemas ? { compileSchemas: options.compileSchemas } : {}),
      })
  } catch (error) {
    // A failed start (e.g. Redis unreachable) must not leave the projector and database running.
    await stopWorkers().catch(() => {})
    throw error
  }

  return {
    app,
    ctx,
    database,
    store,
    keyring,
    projector,
    mailReactor,
    jwtKeys,
    webhookReactor,
    scimTeamReconciler,
    async close() {
      await app?.close()
      await stopWorkers()
    },
  }
}
