/// Use cases of client management: register (by an operator, a signed-in person, or openly under
/// RFC 7591 when the configuration allows it), update, rotate the secret, delete. A secret is drawn
/// here, hashed before it becomes an event, and returned once. Deleting a client revokes every grant
/// it holds, so its access tokens stop at introspection and userinfo and its refresh tokens die.

import {
  type ClientSettings,
  type ClientSource,
  oauthClientDecider,
  oauthClientStream,
} from '../../domain/oauth-provider/oauth-client.js'
import { oauthError } from '../../domain/oauth-provider/oauth-errors.js'
import { oauthGrantDecider, oauthGrantStream } from '../../domain/oauth-provider/oauth-grant.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { StoredClient } from '../../http/ports/oauth-client-lookup.js'
import { ALPHANUMERIC, newId, randomToken, sha256Hex } from '../../infra/crypto/tokens.js'
import type { Acting } from './client-acting.js'
import { clientPolicyOf, type OAuthContext } from './oauth-context.js'

export type { Acting } from './client-acting.js'

const clientSecret = () => randomToken(48, ALPHANUMERIC)

const stored = async (ctx: OAuthContext, clientId: string): Promise<StoredClient> => {
  const client = await ctx.lookups.oauthClients.findClient(clientId)
  if (!client) throw oauthError('not_found', 'client not found')
  return client
}

export const registerClient = async (
  ctx: OAuthContext,
  origin: RequestOrigin,
  acting: Acting,
  settings: ClientSettings,
  source: ClientSource,
  organizationId: string | null = null,
): Promise<{ client: StoredClient; secret: string | undefined }> => {
  const clientId = randomToken(32, ALPHANUMERIC)
  const secret = settings.tokenEndpointAuthMethod === 'none' ? undefined : clientSecret()
  const { caller } = acting
  const owner = caller.kind === 'owner' || caller.kind === 'member' ? caller.userId : null
  await ctx.handle(
    oauthClientDecider,
    oauthClientStream(clientId),
    {
      type: 'register-client',
      clientId,
      caller,
      owner,
      organizationId,
      settings,
      secretHash: secret ? sha256Hex(secret) : null,
      source,
      policy: clientPolicyOf(ctx.config),
      now: ctx.clock().toISOString(),
    },
    { metadata: metadataFor(origin, acting.actor, ctx.clock()), newStream: true },
  )
  return { client: await stored(ctx, clientId), secret }
}

export const updateClient = async (
  ctx: OAuthContext,
  origin: RequestOrigin,
  acting: Acting,
  clientId: string,
  changes: Partial<ClientSettings>,
): Promise<StoredClient> => {
  await ctx.handle(
    oauthClientDecider,
    oauthClientStream(clientId),
    { type: 'update-client', caller: acting.caller, changes, policy: clientPolicyOf(ctx.config) },
    { metadata: metadataFor(origin, acting.actor, ctx.clock()) },
  )
  return stored(ctx, clientId)
}

export const rotateClientSecret = async (
  ctx: OAuthContext,
  origin: RequestOrigin,
  acting: Acting,
  clientId: string,
): Promise<{ client: StoredClient; secret: string }> => {
  const secret = clientSecret()
  await ctx.handle(
    oauthClientDecider,
    oauthClientStream(clientId),
    { type: 'rotate-client-secret', caller: acting.caller, secretHash: sha256Hex(secret) },
    { metadata: metadataFor(origin, acting.actor, ctx.clock()) },
  )
  return { client: await stored(ctx, clientId), secret }
}

export const deleteClient = async (
  ctx: OAuthContext,
  origin: RequestOrigin,
  acting: Acting,
  clientId: string,
): Promise<void> => {
  const metadata = metadataFor(origin, acting.actor, ctx.clock())
  await ctx.handle(
    oauthClientDecider,
    oauthClientStream(clientId),
    { type: 'delete-client', caller: acting.caller },
    { metadata },
  )
  // Each grant's own stream says it ended: the token checks read those streams, on every instance.
  for (const grant of await ctx.lookups.oauthClients.listLiveGrantsOfClient(clientId))
    await ctx.handle(
      oauthGrantDecider,
      oauthGrantStream(grant.grant_id),
      { type: 'revoke-grant', reason: 'client-deleted', clientId },
      { metadata },
    )
}

/** A random id for grants and tokens (not a secret by itself). */
export const grantId = (): string => newId()
