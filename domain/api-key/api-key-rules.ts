/// The rules for what a key may be created or changed with, as better-auth's api-key plugin 1.7
/// answers them (its defaults: expiresIn 1 to 365 days, name and prefix 1 to 32 characters, a
/// per-key limit of 10 verifications a day, metadata only when configured). Properties that only a
/// backend may set are refused from a browser session.

import { AUTH_ERRORS } from '../errors.js'
import type { ApiKeyChanges, ApiKeySettings } from './api-key.js'

export const API_KEY_LIMITS = {
  minExpiresInDays: 1,
  maxExpiresInDays: 365,
  minNameLength: 1,
  maxNameLength: 32,
  minPrefixLength: 1,
  maxPrefixLength: 32,
  /** The per-key limit a new key gets unless a backend sets another. */
  rateLimitTimeWindowMs: 24 * 60 * 60 * 1000,
  rateLimitMax: 10,
  /** Random characters after the prefix (a-z, A-Z: about 365 bits). */
  keyLength: 64,
  /** Characters of the whole key (prefix included) kept to tell keys apart. */
  startLength: 6,
} as const

export type ApiKeyInput = {
  name?: string
  expiresIn?: number | null
  prefix?: string
  remaining?: number | null
  metadata?: unknown
  refillAmount?: number
  refillInterval?: number
  rateLimitEnabled?: boolean
  rateLimitTimeWindow?: number
  rateLimitMax?: number
  permissions?: Record<string, string[]> | null
}

export type ApiKeyUpdateInput = Omit<ApiKeyInput, 'prefix'> & { enabled?: boolean }

/** Who sets the properties: a signed-in user, or a backend over the server API. */
export type ApiKeyCaller = 'user' | 'server'

export type ApiKeyRuleOptions = { enableMetadata: boolean; now: Date }

const SERVER_ONLY = [
  'refillAmount',
  'refillInterval',
  'rateLimitMax',
  'rateLimitTimeWindow',
  'rateLimitEnabled',
  'permissions',
] as const

const refuseServerOnly = (input: ApiKeyInput, caller: ApiKeyCaller, remainingIsServerOnly: boolean) => {
  if (caller === 'server') return
  const remaining = remainingIsServerOnly && input.remaining !== undefined && input.remaining !== null
  if (remaining || SERVER_ONLY.some((field) => input[field] !== undefined))
    throw AUTH_ERRORS.error('SERVER_ONLY_PROPERTY')
}

const expiresAtFor = (expiresIn: number, now: Date): string => {
  const days = expiresIn / 86_400
  if (days < API_KEY_LIMITS.minExpiresInDays) throw AUTH_ERRORS.error('EXPIRES_IN_IS_TOO_SMALL')
  if (days > API_KEY_LIMITS.maxExpiresInDays) throw AUTH_ERRORS.error('EXPIRES_IN_IS_TOO_LARGE')
  return new Date(now.getTime() + expiresIn * 1000).toISOString()
}

const checkName = (name: string) => {
  if (name.length < API_KEY_LIMITS.minNameLength || name.length > API_KEY_LIMITS.maxNameLength)
    throw AUTH_ERRORS.error('INVALID_NAME_LENGTH')
}

const checkMetadata = (metadata: unknown, enableMetadata: boolean): Record<string, unknown> => {
  if (!enableMetadata) throw AUTH_ERRORS.error('METADATA_DISABLED')
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    throw AUTH_ERRORS.error('INVALID_METADATA_TYPE')
  return metadata as Record<string, unknown>
}

const checkRefillPair = (input: ApiKeyInput) => {
  if (input.refillAmount !== undefined && input.refillInterval === undefined)
    throw AUTH_ERRORS.error('REFILL_AMOUNT_AND_INTERVAL_REQUIRED')
  if (input.refillInterval !== undefined && input.refillAmount === undefined)
    throw AUTH_ERRORS.error('REFILL_INTERVAL_AND_AMOUNT_REQUIRED')
}

/** The settings of a new key, or the refusal; the prefix is checked here too. */
export const settingsForNewKey = (
  input: ApiKeyInput,
  caller: ApiKeyCaller,
  { enableMetadata, now }: ApiKeyRuleOptions,
): ApiKeySettings & { prefix: string | null } => {
  refuseServerOnly(input, caller, true)
  const metadata =
    input.metadata === undefined || input.metadata === null
      ? null
      : checkMetadata(input.metadata, enableMetadata)
  checkRefillPair(input)
  const expiresAt = input.expiresIn ? expiresAtFor(input.expiresIn, now) : null
  const prefix = input.prefix ? input.prefix : null
  if (
    prefix !== null &&
    (prefix.length < API_KEY_LIMITS.minPrefixLength || prefix.length > API_KEY_LIMITS.maxPrefixLength)
  )
    throw AUTH_ERRORS.error('INVALID_PREFIX_LENGTH')
  if (input.name) checkName(input.name)
  return {
    prefix,
    name: input.name ? input.name : null,
    expiresAt,
    // No `remaining`: unlimited, refill or not. better-auth's schema defaults `remaining` to null,
    // so its `remaining ?? refillAmount` never falls through to the refill amount.
    remaining: input.remaining ?? null,
    refillAmount: input.refillAmount ?? null,
    refillInterval: input.refillInterval ?? null,
    rateLimitEnabled: input.rateLimitEnabled ?? true,
    rateLimitTimeWindow: input.rateLimitTimeWindow ?? API_KEY_LIMITS.rateLimitTimeWindowMs,
    rateLimitMax: input.rateLimitMax ?? API_KEY_LIMITS.rateLimitMax,
    permissions: input.permissions ?? null,
    metadata,
  }
}

/** The changes an update asks for (and the enabled switch), or the refusal. */
export const changesForUpdate = (
  input: ApiKeyUpdateInput,
  caller: ApiKeyCaller,
  { enableMetadata, now }: ApiKeyRuleOptions,
): { changes: ApiKeyChanges; enabled?: boolean } => {
  // On update `remaining` is server-only whatever its value (better-auth: any `remaining` given).
  if (caller === 'user' && input.remaining !== undefined) throw AUTH_ERRORS.error('SERVER_ONLY_PROPERTY')
  refuseServerOnly(input, caller, false)
  const changes: ApiKeyChanges = {}
  if (input.name !== undefined) {
    checkName(input.name)
    changes.name = input.name
  }
  if (input.expiresIn !== undefined)
    changes.expiresAt = input.expiresIn === null ? null : expiresAtFor(input.expiresIn, now)
  // better-auth ignores metadata on update when metadata is disabled; it is refused here, as on create.
  if (input.metadata !== undefined) changes.metadata = checkMetadata(input.metadata, enableMetadata)
  if (input.remaining !== undefined) changes.remaining = input.remaining
  if (input.refillAmount !== undefined || input.refillInterval !== undefined) {
    checkRefillPair(input)
    changes.refillAmount = input.refillAmount ?? null
    changes.refillInterval = input.refillInterval ?? null
  }
  if (input.rateLimitEnabled !== undefined) changes.rateLimitEnabled = input.rateLimitEnabled
  if (input.rateLimitTimeWindow !== undefined) changes.rateLimitTimeWindow = input.rateLimitTimeWindow
  if (input.rateLimitMax !== undefined) changes.rateLimitMax = input.rateLimitMax
  if (input.permissions !== undefined) changes.permissions = input.permissions
  if (Object.keys(changes).length === 0 && input.enabled === undefined)
    throw AUTH_ERRORS.error('NO_VALUES_TO_UPDATE')
  return input.enabled === undefined ? { changes } : { changes, enabled: input.enabled }
}

/** Whether a key's permissions grant every action asked for (better-auth's `role().authorize`). */
export const grantsPermissions = (
  held: Record<string, string[]> | null,
  required: Record<string, string[]>,
): boolean => {
  if (held === null) return false
  // As role().authorize: nothing asked for, or a resource with no action, grants nothing.
  const asked = Object.entries(required)
  if (asked.length === 0) return false
  return asked.every(([resource, actions]) => {
    const allowed = held[resource]
    return allowed !== undefined && actions.length > 0 && actions.every((action) => allowed.includes(action))
  })
}
