/// The API-key aggregate: one stream per key. Its life is in the log (created, changed, enabled or
/// disabled, deleted, expired, and its use in hourly summaries); the exact counters a verification
/// moves (remaining, requestCount, lastRequest, lastRefillAt) are operational state kept beside the
/// read model and updated atomically (see docs/architecture.md, "API keys: log and counters").
/// The key itself never arrives here: only its SHA-256 hash and its first characters.

import { AUTH_ERRORS } from '../errors.js'
import type { Decider } from '../shared/decider.js'

export const apiKeyStream = (keyId: string) => `api-key-${keyId}`

/** What a key's owner or a backend may set; null clears, absent leaves alone. */
export type ApiKeySettings = {
  name: string | null
  expiresAt: string | null
  remaining: number | null
  refillAmount: number | null
  refillInterval: number | null
  rateLimitEnabled: boolean
  rateLimitTimeWindow: number | null
  rateLimitMax: number | null
  permissions: Record<string, string[]> | null
  metadata: Record<string, unknown> | null
}

export type ApiKeyChanges = Partial<ApiKeySettings>

/// Events

export type ApiKeyEvent =
  | {
      type: 'api-key.created'
      data: ApiKeySettings & {
        keyId: string
        userId: string
        prefix: string | null
        start: string
        keyHash: string
        createdAt: string
      }
    }
  | { type: 'api-key.updated'; data: { keyId: string; userId: string; changes: ApiKeyChanges } }
  | { type: 'api-key.enabled'; data: { keyId: string; userId: string } }
  | { type: 'api-key.disabled'; data: { keyId: string; userId: string } }
  | {
      type: 'api-key.deleted'
      /** `usage-exhausted`: verified with nothing remaining and no refill (better-auth deletes it). */
      data: { keyId: string; userId: string; reason: 'deleted' | 'usage-exhausted' }
    }
  | { type: 'api-key.expired'; data: { keyId: string; userId: string; expiresAt: string } }
  /** A summary of successful verifications (at most one a key an hour), not one event per use. */
  | { type: 'api-key.used'; data: { keyId: string; userId: string; count: number; from: string; to: string } }

/// Commands

export type ApiKeyCommand =
  | {
      type: 'create-api-key'
      keyId: string
      userId: string
      prefix: string | null
      start: string
      keyHash: string
      settings: ApiKeySettings
      now: string
    }
  /** `userId`: who asks (the owner, or the user a backend names); another user's key is not found. */
  | { type: 'update-api-key'; userId: string; changes: ApiKeyChanges; enabled?: boolean }
  | { type: 'delete-api-key'; userId: string }
  | { type: 'expire-api-key'; now: string }
  | { type: 'exhaust-api-key' }
  | { type: 'record-api-key-use'; count: number; from: string; to: string }

/// State

export type ApiKey =
  | { status: 'none' }
  | { status: 'active' | 'gone'; keyId: string; userId: string; enabled: boolean; expiresAt: string | null }

export const initialState = (): ApiKey => ({ status: 'none' })

/// Evolve: no rules, never throws

export const evolve = (state: ApiKey, event: ApiKeyEvent): ApiKey => {
  switch (event.type) {
    case 'api-key.created': {
      const { keyId, userId, expiresAt } = event.data
      return { status: 'active', keyId, userId, enabled: true, expiresAt }
    }
    case 'api-key.updated':
      return state.status === 'none' || event.data.changes.expiresAt === undefined
        ? state
        : { ...state, expiresAt: event.data.changes.expiresAt }
    case 'api-key.enabled':
    case 'api-key.disabled':
      return state.status === 'none' ? state : { ...state, enabled: event.type === 'api-key.enabled' }
    case 'api-key.deleted':
    case 'api-key.expired':
      return state.status === 'none' ? state : { ...state, status: 'gone' }
    default:
      return state
  }
}

/// Decide: every rule

export const decide = (command: ApiKeyCommand, state: ApiKey): ApiKeyEvent[] => {
  if (command.type === 'create-api-key') {
    // A retried creation (same id) adds nothing; the id is random, so it is never someone else's.
    if (state.status !== 'none') return []
    const { keyId, userId, prefix, start, keyHash, settings, now } = command
    return [
      {
        type: 'api-key.created',
        data: { keyId, userId, prefix, start, keyHash, ...settings, createdAt: now },
      },
    ]
  }
  if (state.status !== 'active') {
    // Housekeeping on a key already gone is nothing to do; anything a person asked is "not found".
    if (command.type === 'expire-api-key' || command.type === 'exhaust-api-key') return []
    if (command.type === 'record-api-key-use') return []
    throw AUTH_ERRORS.error('KEY_NOT_FOUND')
  }
  const { keyId, userId } = state
  switch (command.type) {
    case 'update-api-key': {
      // Someone else's key answers exactly as an unknown one, and stays untouched.
      if (command.userId !== userId) throw AUTH_ERRORS.error('KEY_NOT_FOUND')
      const events: ApiKeyEvent[] = []
      if (Object.keys(command.changes).length > 0)
        events.push({ type: 'api-key.updated', data: { keyId, userId, changes: command.changes } })
      if (command.enabled !== undefined && command.enabled !== state.enabled)
        events.push({
          type: command.enabled ? 'api-key.enabled' : 'api-key.disabled',
          data: { keyId, userId },
        })
      return events
    }
    case 'delete-api-key':
      if (command.userId !== userId) throw AUTH_ERRORS.error('KEY_NOT_FOUND')
      return [{ type: 'api-key.deleted', data: { keyId, userId, reason: 'deleted' } }]
    case 'expire-api-key':
      return state.expiresAt !== null && Date.parse(state.expiresAt) <= Date.parse(command.now)
        ? [{ type: 'api-key.expired', data: { keyId, userId, expiresAt: state.expiresAt } }]
        : []
    case 'exhaust-api-key':
      return [{ type: 'api-key.deleted', data: { keyId, userId, reason: 'usage-exhausted' } }]
    case 'record-api-key-use': {
      const { count, from, to } = command
      return count > 0 ? [{ type: 'api-key.used', data: { keyId, userId, count, from, to } }] : []
    }
  }
}

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKey> = { decide, evolve, initialState }
