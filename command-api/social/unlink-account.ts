/// unlink-account, as better-auth's: any of the user's accounts, the password ("credential")
/// account included, unless it is the last one (`account.accountLinking.allowUnlinkingAll` lifts
/// that). A social account leaves the user's linked-accounts stream (`account.unlinked`, its tokens
/// with it); the credential account leaves the user stream (`user.password-removed`): no password
/// signs in afterwards, and set-password or a reset gives one again.
///
/// Each rule is decided on the stream it changes, with the other stream's count passed in. Two
/// unlinks of the user's last two accounts at the same instant, one of each kind, could both pass
/// (the store appends to one stream at a time); the user would keep their session and could get a
/// password back by a reset link. Known and accepted: it needs the account holder racing
/// themselves.

import {
  linkedAccountClaims,
  linkedAccountsDecider,
  linkedAccountsStream,
} from '../../domain/linked-accounts/linked-accounts.js'
import { fold } from '../../domain/shared/decider.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { CREDENTIAL_PROVIDER } from '../../domain/user/user.events.js'
import { type UserEvent, userDecider, userStream } from '../../domain/user/user.js'
import type { CommandContext } from '../context.js'
import { isSessionFresh } from '../shared/fresh-session.js'
import { runUserCommand } from '../shared/run-user-command.js'
import { linkedAccountsOf } from './linked-accounts-of.js'

/** better-auth's `{accountId}` (the account's own id), or the spec's `{providerId, accountId}`. */
export type AccountToUnlink = { accountId: string; providerId?: string | undefined }

/** The session that asks, by when it started: the deciders judge whether it is fresh enough. */
export type UnlinkingSession = { userId: string; startedAt: Date }

export const unlinkAccount = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  { userId, startedAt }: UnlinkingSession,
  given: AccountToUnlink,
): Promise<void> => {
  const { allowUnlinkingAll } = ctx.config.account.accountLinking
  const sessionFresh = isSessionFresh(ctx, startedAt)
  const linked = await linkedAccountsOf(ctx, userId)
  const user = fold(userDecider, (await ctx.store.readStream(userStream(userId))) as unknown as UserEvent[])
  const credential = user.status === 'active' ? user.credential : null
  // The credential account's provider account id is the user's own id (better-auth's rows).
  const isPassword =
    credential !== null &&
    (given.accountId === credential.accountId ||
      (given.providerId === CREDENTIAL_PROVIDER && given.accountId === userId))
  if (isPassword) {
    await runUserCommand(ctx, origin, userId, {
      type: 'remove-password',
      otherAccounts: linked.accounts.length,
      allowUnlinkingAll,
      sessionFresh,
    })
    return
  }
  const account =
    linked.accounts.find((candidate) => candidate.accountId === given.accountId) ??
    linked.accounts.find(
      (candidate) =>
        candidate.providerId === given.providerId && candidate.providerAccountId === given.accountId,
    )
  await ctx.handle(
    linkedAccountsDecider,
    linkedAccountsStream(userId),
    {
      type: 'unlink-account',
      // Unknown: the decider answers as better-auth does (the last-account rule first).
      accountId: account?.accountId ?? given.accountId,
      hasPassword: credential !== null,
      allowUnlinkingAll,
      sessionFresh,
      now: ctx.clock().toISOString(),
    },
    { metadata: metadataFor(origin, { type: 'user', userId }, ctx.clock()), claims: linkedAccountClaims },
  )
}
