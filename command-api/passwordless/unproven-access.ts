/// A mailed proof (magic link, sign-in code) reaching an account that still calls its address
/// unverified. Nothing on such an account proves it belongs to the address's owner: someone may
/// have signed up with another person's address and a password of their own, waiting for the owner
/// to start using it. As better-auth's revokeUnprovenAccountAccess: the password, the linked
/// accounts and the sessions that predate the proof go, and the address counts as verified.

import {
  linkedAccountClaims,
  linkedAccountsDecider,
  linkedAccountsStream,
} from '../../domain/linked-accounts/linked-accounts.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { KnownUser } from '../../http/ports/user-lookup.js'
import type { CommandContext } from '../context.js'
import { revokeSessionAs } from '../sessions/end-session.js'
import { runUserCommand } from '../shared/run-user-command.js'
import { linkedAccountsOf } from '../social/linked-accounts-of.js'

export const revokeUnprovenAccess = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  user: KnownUser,
): Promise<KnownUser | null> => {
  const actor = { type: 'anonymous' } as const
  const linked = await linkedAccountsOf(ctx, user.id)
  for (const account of linked.accounts)
    await ctx.handle(
      linkedAccountsDecider,
      linkedAccountsStream(user.id),
      {
        type: 'unlink-account',
        accountId: account.accountId,
        hasPassword: false,
        allowUnlinkingAll: true,
        // Not a person's request from a session: proving the address by mail clears what was unproven.
        sessionFresh: true,
        now: ctx.clock().toISOString(),
      },
      { metadata: metadataFor(origin, actor, ctx.clock()), claims: linkedAccountClaims },
    )
  for (const session of await ctx.lookups.sessions.ofUser(user.id))
    await revokeSessionAs(ctx, origin, { sessionId: session.id, actor, reason: 'revoked-all' })
  await runUserCommand(ctx, origin, user.id, { type: 'prove-address-by-mail', email: user.email }, actor)
  return (await ctx.lookups.users.byId(user.id)) ?? null
}
