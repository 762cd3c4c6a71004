/// Use cases of a person's consents ("Connected applications"): change the scopes agreed to, and
/// revoke. A consent's grants follow it: revoking ends every grant the person gave the client, and
/// narrowing ends the grants that hold a scope no longer agreed to, so their tokens stop at once.

import { oauthConsentDecider, oauthConsentStream } from '../../domain/oauth-provider/oauth-consent.js'
import { oauthError } from '../../domain/oauth-provider/oauth-errors.js'
import { oauthGrantDecider, oauthGrantStream } from '../../domain/oauth-provider/oauth-grant.js'
import { type EventMetadata, metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { OAuthConsentRow } from '../../http/ports/oauth-client-lookup.js'
import type { OAuthContext } from './oauth-context.js'

/** A consent as better-auth's plugin answers it; its id is its client's (one per person and client). */
export const consentJson = async (ctx: OAuthContext, row: OAuthConsentRow) => {
  const name = (await ctx.lookups.oauthClients.findClient(row.client_id))?.settings.name
  return {
    id: row.client_id,
    clientId: row.client_id,
    userId: row.user_id,
    ...(name ? { clientName: name } : {}),
    scopes: row.scopes.split(' ').filter(Boolean),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }
}

export const consentOf = async (ctx: OAuthContext, userId: string, clientId: string) => {
  const row = await ctx.lookups.oauthClients.findConsent(userId, clientId)
  if (!row) throw oauthError('not_found', 'no consent')
  return row
}

const revokeGrants = async (
  ctx: OAuthContext,
  metadata: EventMetadata,
  userId: string,
  clientId: string,
  keep: (scopes: string[]) => boolean,
) => {
  for (const grant of await ctx.lookups.oauthClients.listLiveGrants(userId, clientId)) {
    if (keep(grant.scopes.split(' ').filter(Boolean))) continue
    await ctx.handle(
      oauthGrantDecider,
      oauthGrantStream(grant.grant_id),
      { type: 'revoke-grant', reason: 'consent-revoked', userId },
      { metadata },
    )
  }
}

export const revokeConsent = async (
  ctx: OAuthContext,
  origin: RequestOrigin,
  userId: string,
  clientId: string,
): Promise<void> => {
  const metadata = metadataFor(origin, { type: 'user', userId }, ctx.clock())
  await ctx.handle(
    oauthConsentDecider,
    oauthConsentStream(userId, clientId),
    { type: 'revoke-consent', userId, clientId },
    { metadata },
  )
  await revokeGrants(ctx, metadata, userId, clientId, () => false)
}

export const updateConsent = async (
  ctx: OAuthContext,
  origin: RequestOrigin,
  userId: string,
  clientId: string,
  scopes: string[],
): Promise<OAuthConsentRow> => {
  const client = await ctx.lookups.oauthClients.findClient(clientId)
  if (!client) throw oauthError('not_found', 'client not found')
  const metadata = metadataFor(origin, { type: 'user', userId }, ctx.clock())
  await ctx.handle(
    oauthConsentDecider,
    oauthConsentStream(userId, clientId),
    {
      type: 'update-consent',
      userId,
      clientId,
      scopes,
      allowedScopes: client.settings.scopes ?? ctx.config.oauthProvider.scopes,
      now: ctx.clock().toISOString(),
    },
    { metadata },
  )
  await revokeGrants(ctx, metadata, userId, clientId, (held) => held.every((s) => scopes.includes(s)))
  return consentOf(ctx, userId, clientId)
}
