/// An endpoint's signing secrets, read from its stream (where they are sealed; the encrypting
/// store opens them): the current one, and the previous one while its rotation period lasts.

import { randomUUID } from 'node:crypto'
import { fold } from '../../../domain/shared/decider.js'
import { type WebhookEvent, webhookDecider, webhookStream } from '../../../domain/webhook/webhook.js'
import { ConcurrencyError, type EventStore } from '../../../infra/event-store/event-store.js'

type SigningKeys = { current: string | null; previous: { secret: string; until: Date } | null }

const signingKeysOf = async (store: EventStore, endpointId: string): Promise<SigningKeys> => {
  let current: string | null = null
  let previous: { secret: string; until: Date } | null = null
  for (const event of (await store.readStream(webhookStream(endpointId))) as unknown as WebhookEvent[]) {
    if (event.type === 'webhook.endpoint-created') current = event.data.secret
    if (event.type === 'webhook.secret-rotated') {
      previous = current === null ? null : { secret: current, until: new Date(event.data.previousValidUntil) }
      current = event.data.secret
    }
  }
  return { current, previous }
}

const signingAt = ({ current, previous }: SigningKeys, now: Date): string[] => {
  const secrets = current === null ? [] : [current]
  if (previous && previous.until > now) secrets.push(previous.secret)
  return secrets
}

export const secretsOf = async (store: EventStore, endpointId: string, now: Date): Promise<string[]> =>
  signingAt(await signingKeysOf(store, endpointId), now)

/**
 * How long a process trusts the keys it read, when it does not hear of the rotation (its read models
 * stalled). An endpoint's run follows the log as long (webhook-reactor.ts), so a run of steady
 * commits reads them once rather than every few seconds.
 */
export const KEYS_TTL_MS = 30_000

/**
 * The keys of each endpoint, read from its stream once rather than on every run of its worker.
 * `forget` drops an endpoint's (the reactor calls it for every `webhook.*` event it sees applied);
 * a rotation applied by another process is picked up within KEYS_TTL_MS, while the previous
 * secret still signs.
 */
export const createSecretsCache = (store: EventStore) => {
  const cache = new Map<string, { keys: Promise<SigningKeys>; readAt: number }>()
  return {
    async secrets(endpointId: string, now: Date): Promise<string[]> {
      let entry = cache.get(endpointId)
      if (!entry || performance.now() - entry.readAt > KEYS_TTL_MS) {
        entry = { keys: signingKeysOf(store, endpointId), readAt: performance.now() }
        cache.set(endpointId, entry)
        entry.keys.catch(() => cache.delete(endpointId))
      }
      return signingAt(await entry.keys, now)
    },
    forget(endpointId: string) {
      cache.delete(endpointId)
    },
  }
}

/**
 * Disables an endpoint whose deliveries failed for the whole retry period: a command decided on
 * its stream like any other, with the system as actor.
 */
export const disableEndpoint = async (
  store: EventStore,
  endpointId: string,
  failingSince: Date,
  now: Date,
): Promise<boolean> => {
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const stream = webhookStream(endpointId)
    const history = (await store.readStream(stream)) as unknown as WebhookEvent[]
    const state = fold(webhookDecider, history)
    if (state.status !== 'active' || !state.enabled) return false
    const events = webhookDecider.decide(
      { type: 'disable-webhook', failingSince: failingSince.toISOString() },
      state,
    )
    const metadata = {
      actor: { type: 'system' as const },
      ip: null,
      userAgent: null,
      correlationId: randomUUID(),
      causationId: null,
      at: now.toISOString(),
    }
    try {
      await store.appendToStream(
        stream,
        events.map((event) => ({ ...event, id: randomUUID(), metadata })),
        { expectedVersion: history.length },
      )
      return true
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error
    }
  }
  return false
}
