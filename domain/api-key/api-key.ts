/// The API-key aggregate: one stream per key. Its life is in the log (created, changed, enabled or
/// disabled, deleted, expired, and its use in hourly summaries); the exact counters a verification
/// moves (remaining, requestCount, lastRequest, lastRefillAt) are operational state kept beside the
/// read model and updated atomically (see docs/architecture.md, "API keys: log and counters").
/// The key itself never arrives here: only its SHA-256 hash and its first characters.
///
/// A key belongs to a user, or to an organization (better-auth's `references: "organization"`):
/// then `userId` is null, `organizationId` names it, and `byUserId` the member who acted (whose
/// words the name and metadata are, and whose permission the use case checked).

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

/** Who a key belongs to. */
export type ApiKeyOwner =
  | { userId: string; organizationId?: undefined }
  | { userId: null; organizationId: string }

/**
 * What every event names: the key and its owner; for an organization's key, the member who acted
 * (absent when nobody did: an expiry, a summary of uses).
 */
export type ApiKeyRef = { keyId: string; userId: string | null; organizationId?: string; byUserId?: string }

/** Successful verifications not yet in the log: how many, from when to when (ISO instants). */
export type UseSummary = { count: number; from: string; to: string }

export type ApiKeyDeletionReason = 'deleted' | 'usage-exhausted'

/// Events

export type ApiKeyEvent =
  | {
      type: 'api-key.created'
      data: ApiKeySettings &
        ApiKeyRef & {
          prefix: string | null
          start: string
          /** The key's last four characters; absent from keys made before they were kept. */
          lastFour?: string
          keyHash: string
          createdAt: string
        }
    }
  | { type: 'api-key.updated'; data: ApiKeyRef & { changes: ApiKeyChanges } }
  | { type: 'api-key.enabled'; data: ApiKeyRef }
  | { type: 'api-key.disabled'; data: ApiKeyRef }
  | {
      type: 'api-key.deleted'
      /** `usage-exhausted`: verified with nothing remaining and no refill (better-auth deletes it). */
      data: ApiKeyRef & { reason: ApiKeyDeletionReason }
    }
  | { type: 'api-key.expired'; data: ApiKeyRef & { expiresAt: string } }
  /**
   * A summary of successful verifications (at most one a key an hour, and one when the key goes),
   * not one event per use. Uses answered just before a key went may arrive after its deletion.
   */
  | { type: 'api-key.used'; data: ApiKeyRef & UseSummary }

/// Commands

/** What a person (or a backend for them) asks of an existing key; the owner they believe it has. */
type Asked = { owner: ApiKeyOwner; byUserId?: string }

export type ApiKeyCommand =
  | (Asked & {
      type: 'create-api-key'
      keyId: string
      prefix: string | null
      start: string
      lastFour?: string
      keyHash: string
      settings: ApiKeySettings
      now: string
      /** The user the key is for (or who acts for the organization) exists: a backend may name anyone. */
      userExists: boolean
    })
  /** Another owner's key is not found. */
  | (Asked & { type: 'update-api-key'; changes: ApiKeyChanges; enabled?: boolean })
  /** `unrecorded`: the uses not yet summarised, recorded before the key goes. */
  | (Asked & { type: 'delete-api-key'; unrecorded?: UseSummary })
  | { type: 'expire-api-key'; now: string; unrecorded?: UseSummary }
  | { type: 'exhaust-api-key'; unrecorded?: UseSummary }
  | ({ type: 'record-api-key-use' } & UseSummary)

/// State

export type ApiKey =
  | { status: 'none' }
  | {
      status: 'active' | 'gone'
      keyId: string
      userId: string | null
      organizationId: string | null
      enabled: boolean
      expiresAt: string | null
    }

export const initialState = (): ApiKey => ({ status: 'none' })

/// Evolve: no rules, never throws

export const evolve = (state: ApiKey, event: ApiKeyEvent): ApiKey => {
  switch (event.type) {
    case 'api-key.created': {
      const { keyId, userId, organizationId, expiresAt } = event.data
      return {
        status: 'active',
        keyId,
        userId,
        organizationId: organizationId ?? null,
        enabled: true,
        expiresAt,
      }
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

const ownedBy = (state: Extract<ApiKey, { keyId: string }>, owner: ApiKeyOwner): boolean =>
  owner.userId === null
    ? state.organizationId === owner.organizationId
    : state.userId === owner.userId && state.organizationId === null

const refOf = (state: Extract<ApiKey, { keyId: string }>, byUserId?: string): ApiKeyRef => ({
  keyId: state.keyId,
  userId: state.userId,
  ...(state.organizationId === null ? {} : { organizationId: state.organizationId }),
  ...(state.organizationId !== null && byUserId !== undefined ? { byUserId } : {}),
})

const usedEvents = (ref: ApiKeyRef, summary: UseSummary | undefined): ApiKeyEvent[] =>
  summary && summary.count > 0
    ? [{ type: 'api-key.used', data: { ...ref, count: summary.count, from: summary.from, to: summary.to } }]
    : []

export const decide = (command: ApiKeyCommand, state: ApiKey): ApiKeyEvent[] => {
  if (command.type === 'create-api-key') {
    if (!command.userExists) throw AUTH_ERRORS.error('USER_NOT_FOUND')
    // A retried creation (same id) adds nothing; the id is random, so it is never someone else's.
    if (state.status !== 'none') return []
    const { keyId, owner, byUserId, prefix, start, lastFour, keyHash, settings, now } = command
    const ref: ApiKeyRef =
      owner.userId === null
        ? { keyId, userId: null, organizationId: owner.organizationId, ...(byUserId ? { byUserId } : {}) }
        : { keyId, userId: owner.userId }
    return [
      {
        type: 'api-key.created',
        data: {
          ...ref,
          prefix,
          start,
          ...(lastFour ? { lastFour } : {}),
          keyHash,
          ...settings,
          createdAt: now,
        },
      },
    ]
  }
  if (state.status === 'none') {
    if (command.type === 'expire-api-key' || command.type === 'exhaust-api-key') return []
    if (command.type === 'record-api-key-use') return []
    throw AUTH_ERRORS.error('KEY_NOT_FOUND')
  }
  if (state.status === 'gone') {
    // Uses answered before the key went, counted by an instance that had not yet written them.
    if (command.type === 'record-api-key-use') return usedEvents(refOf(state), command)
    // Housekeeping on a key already gone is nothing to do; anything a person asked is "not found".
    if (command.type === 'expire-api-key' || command.type === 'exhaust-api-key') return []
    throw AUTH_ERRORS.error('KEY_NOT_FOUND')
  }
  switch (command.type) {
    case 'update-api-key': {
      // Someone else's key answers exactly as an unknown one, and stays untouched.
      if (!ownedBy(state, command.owner)) throw AUTH_ERRORS.error('KEY_NOT_FOUND')
      const ref = refOf(state, command.byUserId)
      const events: ApiKeyEvent[] = []
      if (Object.keys(command.changes).length > 0)
        events.push({ type: 'api-key.updated', data: { ...ref, changes: command.changes } })
      if (command.enabled !== undefined && command.enabled !== state.enabled)
        events.push({ type: command.enabled ? 'api-key.enabled' : 'api-key.disabled', data: ref })
      return events
    }
    case 'delete-api-key': {
      if (!ownedBy(state, command.owner)) throw AUTH_ERRORS.error('KEY_NOT_FOUND')
      const ref = refOf(state, command.byUserId)
      return [
        ...usedEvents(refOf(state), command.unrecorded),
        { type: 'api-key.deleted', data: { ...ref, reason: 'deleted' } },
      ]
    }
    case 'expire-api-key':
      return state.expiresAt !== null && Date.parse(state.expiresAt) <= Date.parse(command.now)
        ? [
            ...usedEvents(refOf(state), command.unrecorded),
            { type: 'api-key.expired', data: { ...refOf(state), expiresAt: state.expiresAt } },
          ]
        : []
    case 'exhaust-api-key':
      return [
        ...usedEvents(refOf(state), command.unrecorded),
        { type: 'api-key.deleted', data: { ...refOf(state), reason: 'usage-exhausted' } },
      ]
    case 'record-api-key-use':
      return usedEvents(refOf(state), command)
  }
}

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKey> = { decide, evolve, initialState }
