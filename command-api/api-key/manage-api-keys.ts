/// Creating, changing and deleting API keys, for their owner (a signed-in user) or for a backend
/// over the server API (which names the user and may set the server-only properties). A key may
/// belong to an organization instead (`organizationId` on create, better-auth's keys whose
/// configuration `references` organizations): then the acting user must be a member whose role
/// grants the `apiKey` action (http/guards/organization-key-access.ts).

import { type ApiKeyOwner, apiKeyDecider, apiKeyStream } from '../../domain/api-key/api-key.js'
import {
  type ApiKeyInput,
  type ApiKeyUpdateInput,
  changesForUpdate,
  settingsForNewKey,
} from '../../domain/api-key/api-key-rules.js'
import { AUTH_ERRORS } from '../../domain/errors.js'
import type { ApiKeyAction } from '../../domain/organization/permissions.js'
import { type Actor, metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { assertMayManageOrganizationKeys } from '../../http/guards/organization-key-access.js'
import { type ApiKeyJson, apiKeyJson } from '../../http/presenters/api-key-json.js'
import { newId } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'
import { newApiKey } from './api-key-secret.js'
import { closingUses } from './api-key-uses.js'

/** Who acts: the signed-in owner, or a backend (its actor) on behalf of the user it names. */
export type ApiKeyCaller = { kind: 'user'; userId: string } | { kind: 'server'; actor: Actor; userId: string }

const actorOf = (caller: ApiKeyCaller): Actor =>
  caller.kind === 'user' ? { type: 'user', userId: caller.userId } : caller.actor

const readBack = async (ctx: CommandContext, keyId: string): Promise<ApiKeyJson> => {
  const row = await ctx.lookups.apiKeys.byId(keyId)
  if (!row) throw AUTH_ERRORS.error('KEY_NOT_FOUND')
  return apiKeyJson(row)
}

export const createApiKey = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: ApiKeyCaller,
  { organizationId, ...input }: ApiKeyInput & { organizationId?: string },
): Promise<ApiKeyJson & { key: string }> => {
  const now = ctx.clock()
  const { prefix, ...settings } = settingsForNewKey(input, caller.kind, {
    enableMetadata: ctx.config.apiKey.enableMetadata,
    now,
  })
  // A backend may name anyone; the decider refuses a key for someone who does not exist, before
  // the organization's permission (which such a user could not hold).
  const userExists = caller.kind === 'user' || (await ctx.lookups.users.byId(caller.userId)) !== undefined
  if (organizationId !== undefined && userExists)
    await assertMayManageOrganizationKeys(ctx, caller.userId, organizationId, 'create')
  const owner: ApiKeyOwner =
    organizationId === undefined ? { userId: caller.userId } : { userId: null, organizationId }
  const keyId = newId()
  const { key, keyHash, start, lastFour } = newApiKey(prefix)
  await ctx.handle(
    apiKeyDecider,
    apiKeyStream(keyId),
    {
      type: 'create-api-key',
      keyId,
      owner,
      ...(organizationId === undefined ? {} : { byUserId: caller.userId }),
      prefix,
      start,
      lastFour,
      keyHash,
      settings,
      now: now.toISOString(),
      userExists,
    },
    { metadata: metadataFor(origin, actorOf(caller), now) },
  )
  return { ...(await readBack(ctx, keyId)), key }
}

/**
 * The owner the caller acts as: an organization's (after checking they may `action` its keys), else
 * themselves. An unknown id and another user's key alike are KEY_NOT_FOUND, from the decider.
 */
const ownerFor = async (
  ctx: CommandContext,
  caller: ApiKeyCaller,
  keyId: string,
  action: ApiKeyAction,
): Promise<ApiKeyOwner> => {
  const row = await ctx.lookups.apiKeys.byId(keyId)
  if (row && row.organization_id !== null) {
    await assertMayManageOrganizationKeys(ctx, caller.userId, row.organization_id, action)
    return { userId: null, organizationId: row.organization_id }
  }
  // The caller's own, as they claim it: the decider refuses an unknown key and another's alike.
  return { userId: caller.userId }
}

const asked = (owner: ApiKeyOwner, caller: ApiKeyCaller) =>
  owner.userId === null ? { owner, byUserId: caller.userId } : { owner }

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
  const owner = await ownerFor(ctx, caller, keyId, 'update')
  await ctx.handle(
    apiKeyDecider,
    apiKeyStream(keyId),
    {
      type: 'update-api-key',
      ...asked(owner, caller),
      changes,
      ...(enabled === undefined ? {} : { enabled }),
    },
    { metadata: metadataFor(origin, actorOf(caller), now) },
  )
  return readBack(ctx, keyId)
}

/** Deletes the key; the uses not yet in the log are recorded in the same append, before the end. */
export const deleteApiKey = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: ApiKeyCaller,
  keyId: string,
): Promise<void> => {
  const owner = await ownerFor(ctx, caller, keyId, 'delete')
  const now = ctx.clock()
  await closingUses(ctx, keyId, (unrecorded) =>
    ctx.handle(
      apiKeyDecider,
      apiKeyStream(keyId),
      { type: 'delete-api-key', ...asked(owner, caller), ...(unrecorded ? { unrecorded } : {}) },
      { metadata: metadataFor(origin, actorOf(caller), now) },
    ),
  )
}
