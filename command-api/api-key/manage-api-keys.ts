/// Creating, changing and deleting API keys, for their owner (a signed-in user) or for a backend
/// over the server API (which names the user and may set the server-only properties).

import { apiKeyDecider, apiKeyStream } from '../../domain/api-key/api-key.js'
import {
  type ApiKeyInput,
  type ApiKeyUpdateInput,
  changesForUpdate,
  settingsForNewKey,
} from '../../domain/api-key/api-key-rules.js'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { type Actor, metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { newId } from '../../infra/crypto/tokens.js'
import { findApiKeyById } from '../../projections/api-keys/api-keys.repository.js'
import { findUserById } from '../../projections/users/users.repository.js'
import { type ApiKeyJson, apiKeyJson } from '../../query-api/api-key/api-key-json.js'
import type { CommandContext } from '../context.js'
import { newApiKey } from './api-key-secret.js'

/** Who acts: the signed-in owner, or a backend (its actor) on behalf of the user it names. */
export type ApiKeyCaller = { kind: 'user'; userId: string } | { kind: 'server'; actor: Actor; userId: string }

const actorOf = (caller: ApiKeyCaller): Actor =>
  caller.kind === 'user' ? { type: 'user', userId: caller.userId } : caller.actor

const readBack = async (ctx: CommandContext, keyId: string): Promise<ApiKeyJson> => {
  const row = await findApiKeyById(ctx.db, keyId)
  if (!row) throw AUTH_ERRORS.error('KEY_NOT_FOUND')
  return apiKeyJson(row)
}

export const createApiKey = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: ApiKeyCaller,
  input: ApiKeyInput,
): Promise<ApiKeyJson & { key: string }> => {
  const now = ctx.clock()
  const { prefix, ...settings } = settingsForNewKey(input, caller.kind, {
    enableMetadata: ctx.config.apiKey.enableMetadata,
    now,
  })
  // A backend may name anyone; the key must still belong to someone who exists.
  if (caller.kind === 'server' && !(await findUserById(ctx.db, caller.userId)))
    throw AUTH_ERRORS.error('USER_NOT_FOUND')
  const keyId = newId()
  const { key, keyHash, start } = newApiKey(prefix)
  await ctx.handle(
    apiKeyDecider,
    apiKeyStream(keyId),
    {
      type: 'create-api-key',
      keyId,
      userId: caller.userId,
      prefix,
      start,
      keyHash,
      settings,
      now: now.toISOString(),
    },
    { metadata: metadataFor(origin, actorOf(caller), now) },
  )
  return { ...(await readBack(ctx, keyId)), key }
}

/** The caller's key, or KEY_NOT_FOUND for an unknown id and for someone else's key alike. */
const ownedKey = async (ctx: CommandContext, caller: ApiKeyCaller, keyId: string) => {
  const row = await findApiKeyById(ctx.db, keyId)
  if (!row || row.user_id !== caller.userId) throw AUTH_ERRORS.error('KEY_NOT_FOUND')
  return row
}

export const updateApiKey = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: ApiKeyCaller,
  { keyId, ...input }: ApiKeyUpdateInput & { keyId: string },
): Promise<ApiKeyJson> => {
  const now = ctx.clock()
  const { changes, enabled } = changesForUpdate(input, caller.kind, {
    enableMetadata: ctx.config.apiKey.enableMetadata,
    now,
  })
  await ownedKey(ctx, caller, keyId)
  await ctx.handle(
    apiKeyDecider,
    apiKeyStream(keyId),
    { type: 'update-api-key', userId: caller.userId, changes, ...(enabled === undefined ? {} : { enabled }) },
    { metadata: metadataFor(origin, actorOf(caller), now) },
  )
  return readBack(ctx, keyId)
}

export const deleteApiKey = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: ApiKeyCaller,
  keyId: string,
): Promise<void> => {
  await ownedKey(ctx, caller, keyId)
  await ctx.handle(
    apiKeyDecider,
    apiKeyStream(keyId),
    { type: 'delete-api-key', userId: caller.userId },
    { metadata: metadataFor(origin, actorOf(caller), ctx.clock()) },
  )
}
