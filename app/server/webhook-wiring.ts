/// Assembles the webhook reactor of a projecting process: the endpoints' address policy from the
/// config, the disabling command, the owner's mail, and the wake-up when read models advance.

import type { Logger } from 'pino'
import type { Config } from '../../infra/config/config.js'
import type { EventStore } from '../../infra/event-store/event-store.js'
import type { MailTransport } from '../../infra/mail/mail.js'
import { addressPolicy } from '../../infra/webhooks/address-guard.js'
import { webhookDisabledNotifier } from '../../projections/reactors/webhooks/disabled-mail.js'
import { disableEndpoint } from '../../projections/reactors/webhooks/endpoint-secrets.js'
import {
  createWebhookReactor,
  type WebhookReactor,
} from '../../projections/reactors/webhooks/webhook-reactor.js'
import type { Projector } from '../../projections/runner/projector.js'
import type { TesseraDatabase } from '../database.js'

export const createTesseraWebhookReactor = (parts: {
  config: Config
  logger: Logger
  database: TesseraDatabase
  store: EventStore
  projector: Projector
  transport: MailTransport
  clock: () => Date
}): WebhookReactor => {
  const { config, database, store, clock } = parts
  return createWebhookReactor({
    db: database.db,
    store,
    policy: addressPolicy(config.webhooks.allowAddresses),
    // Only PostgreSQL can be shared by several processes; PGlite belongs to this one.
    lock: database.kind === 'postgres' ? 'advisory' : 'in-process',
    onReadModelsAdvance: parts.projector.onApplied,
    disable: (endpointId, failingSince) => disableEndpoint(store, endpointId, failingSince, clock()),
    notifyDisabled: webhookDisabledNotifier(database.db, parts.transport, config.baseUrl),
    now: clock,
    logger: parts.logger,
  })
}
