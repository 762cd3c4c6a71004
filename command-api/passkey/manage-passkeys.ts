/// Renaming and removing a passkey: only its owner may (the decider says so, with better-auth's
/// answers: someone else's passkey is 401, an unknown one 404 PASSKEY_NOT_FOUND).

import { AUTH_ERRORS } from '../../domain/errors.js'
import { passkeyClaims, passkeyDecider, passkeyStream } from '../../domain/passkey/passkey.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { KnownPasskey } from '../../http/ports/passkey-lookup.js'
import type { CommandContext } from '../context.js'

export const renamePasskey = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: { userId: string; passkeyId: string; name: string },
): Promise<KnownPasskey> => {
  const now = ctx.clock()
  await ctx.handle(
    passkeyDecider,
    passkeyStream(input.passkeyId),
    { type: 'rename-passkey', requestedBy: input.userId, name: input.name, now: now.toISOString() },
    { metadata: metadataFor(origin, { type: 'user', userId: input.userId }, now) },
  )
  const row = await ctx.lookups.passkeys.byId(input.passkeyId)
  if (!row) throw AUTH_ERRORS.error('FAILED_TO_UPDATE_PASSKEY')
  return row
}

export const deletePasskey = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: { userId: string; passkeyId: string },
): Promise<void> => {
  const now = ctx.clock()
  await ctx.handle(
    passkeyDecider,
    passkeyStream(input.passkeyId),
    { type: 'delete-passkey', requestedBy: input.userId, now: now.toISOString() },
    { metadata: metadataFor(origin, { type: 'user', userId: input.userId }, now), claims: passkeyClaims },
  )
}
