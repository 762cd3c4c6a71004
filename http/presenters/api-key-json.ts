/// An API key as better-auth's api-key plugin 1.7 answers it: never the hash, the whole key only in
/// the create answer. `referenceId` is the owner (better-auth 1.7's name): the user, or the
/// organization of an organization-owned key; `userId` names the owning user for clients written
/// against earlier versions (null for an organization's key).

import { Type } from 'typebox'
import type { ApiKeyWithUsage } from '../../projections/api-keys/api-keys.repository.js'

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()])
const NullableNumber = Type.Union([Type.Number(), Type.Null()])

export const ApiKeySchema = Type.Object({
  id: Type.String(),
  configId: Type.String(),
  name: Nullable(Type.String()),
  start: Nullable(Type.String()),
  /** Tessera's: the key's last four characters (null for keys made before they were kept). */
  lastFour: Nullable(Type.String()),
  prefix: Nullable(Type.String()),
  referenceId: Type.String(),
  userId: Nullable(Type.String()),
  enabled: Type.Boolean(),
  expiresAt: Nullable(Type.String({ format: 'date-time' })),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  lastRefillAt: Nullable(Type.String({ format: 'date-time' })),
  lastRequest: Nullable(Type.String({ format: 'date-time' })),
  remaining: NullableNumber,
  refillAmount: NullableNumber,
  refillInterval: NullableNumber,
  rateLimitEnabled: Type.Boolean(),
  rateLimitTimeWindow: NullableNumber,
  rateLimitMax: NullableNumber,
  requestCount: Type.Number(),
  permissions: Type.Union([Type.Record(Type.String(), Type.Array(Type.String())), Type.Null()]),
  metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
})

export const CreatedApiKeySchema = Type.Intersect([ApiKeySchema, Type.Object({ key: Type.String() })])

const iso = (date: Date | null): string | null => (date === null ? null : new Date(date).toISOString())
const parsed = (text: string | null) => (text === null ? null : JSON.parse(text))

export const apiKeyJson = (row: ApiKeyWithUsage) => ({
  id: row.id,
  configId: 'default',
  name: row.name,
  start: row.start,
  lastFour: row.last_four,
  prefix: row.prefix,
  referenceId: (row.user_id ?? row.organization_id) as string,
  userId: row.user_id,
  enabled: row.enabled,
  expiresAt: iso(row.expires_at),
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
  lastRefillAt: iso(row.last_refill_at),
  lastRequest: iso(row.last_request),
  remaining: row.remaining,
  refillAmount: row.refill_amount,
  refillInterval: row.refill_interval,
  rateLimitEnabled: row.rate_limit_enabled,
  rateLimitTimeWindow: row.rate_limit_time_window,
  rateLimitMax: row.rate_limit_max,
  requestCount: Number(row.request_count),
  permissions: parsed(row.permissions) as Record<string, string[]> | null,
  metadata: parsed(row.metadata) as Record<string, unknown> | null,
})

export type ApiKeyJson = ReturnType<typeof apiKeyJson>
