/// What a mailed proof of the address (a magic link or an email one-time code, checked by their own
/// aggregates) does to the account. The proof arrives already checked; these rules say what follows.

import { parseEmail } from './email.js'
import type { UserEvent } from './user.events.js'
import type { ActiveUser } from './user.state.js'

export type PasswordlessUserCommand =
  /**
   * The address was proven by mail (a magic link or a sign-in code) while the account still called
   * it unverified: nothing on the account proves it belongs to the address's owner, so its password
   * goes (as better-auth's revokeUnprovenAccountAccess; the caller ends its sessions and linked
   * accounts) and the address counts as verified.
   */
  | { type: 'prove-address-by-mail'; email: string }
  /** A reset code mailed to the address (`forget-password`) was used: the new password, first or not. */
  | { type: 'reset-password-by-code'; codeHash: string; accountId: string; passwordHash: string }
  /** A code mailed to the new address (`change-email`) was used: the address changes, verified. */
  | { type: 'change-email-by-code'; currentEmail: string; newEmail: string }

export const decidePasswordless = (command: PasswordlessUserCommand, user: ActiveUser): UserEvent[] => {
  const { userId } = user
  switch (command.type) {
    case 'prove-address-by-mail': {
      if (parseEmail(command.email) !== user.email || user.emailVerified) return []
      const removed: UserEvent[] = user.credential
        ? [{ type: 'user.password-removed', data: { userId, accountId: user.credential.accountId } }]
        : []
      return [...removed, { type: 'user.email-verified', data: { userId, email: user.email } }]
    }
    case 'reset-password-by-code': {
      const { passwordHash } = command
      const password: UserEvent = user.credential
        ? { type: 'user.password-reset', data: { userId, tokenHash: command.codeHash, passwordHash } }
        : { type: 'user.password-set', data: { userId, accountId: command.accountId, passwordHash } }
      // As better-auth: the code reached the address, so the address is verified now.
      if (user.emailVerified) return [password]
      return [password, { type: 'user.email-verified', data: { userId, email: user.email } }]
    }
    case 'change-email-by-code': {
      const email = parseEmail(command.newEmail)
      // The code was mailed for a move from the address the account had then.
      if (parseEmail(command.currentEmail) !== user.email || email === user.email) return []
      return [
        {
          type: 'user.email-changed',
          data: { userId, previousEmail: user.email, email, emailVerified: true },
        },
      ]
    }
  }
}
