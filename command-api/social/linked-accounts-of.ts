/// A user's linked social accounts, folded from their linked-accounts stream (the tokens decrypted
/// by the store). The commands that need the accounts' tokens or their exact set read this, not
/// the read model, which holds no token and may trail the log.

import {
  type LinkedAccountEvent,
  type LinkedAccounts,
  linkedAccountsDecider,
  linkedAccountsStream,
} from '../../domain/linked-accounts/linked-accounts.js'
import { fold } from '../../domain/shared/decider.js'
import type { CommandContext } from '../context.js'

export const linkedAccountsOf = async (
  ctx: Pick<CommandContext, 'store'>,
  userId: string,
): Promise<LinkedAccounts> => {
  const events = await ctx.store.readStream(linkedAccountsStream(userId))
  return fold(linkedAccountsDecider, events as unknown as LinkedAccountEvent[])
}
