/// What a mailed proof of the address (a magic link or an email one-time code, checked by their own
/// aggregates) does to the account. The proof arrives already checked; these rules say what follows.

import { AUTH_ERRORS } from '../errors.js'
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
  /**
   * A code mailed to the new address (`change-email`) was used: the address changes, verified.
   * Asked ahead too (before a code is sent or entered) without `takenByAnother`, for the refusals
   * that come first.
   */
  | {
      type: 'change-email-by-code'
      currentEmail: string
      newEmail: string
      /** The session asking signed in within `session.freshAge` (measured by the edge). */
      sessionFresh: boolean
      /** The new address is someone else's (the caller read its claim); absent when asked ahead. */
      takenByAnother?: boolean
    }

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
    case 'change-email-by-code':
      return changeEmailByCode(command, user)
  }
}

/** better-auth's emailOTP change-email, its refusals in its order. */
const changeEmailByCode = (
  command: Extract<PasswordlessUserCommand, { type: 'change-email-by-code' }>,
  user: ActiveUser,
): UserEvent[] => {
  if (!command.sessionFresh) throw AUTH_ERRORS.error('SESSION_NOT_FRESH')
  const email = parseEmail(command.newEmail)
  const currentEmail = parseEmail(command.currentEmail)
  if (email === currentEmail) throw AUTH_ERRORS.error('EMAIL_IS_THE_SAME')
  if (command.takenByAnother) throw AUTH_ERRORS.error('EMAIL_ALREADY_IN_USE')
  // The code was mailed for a move from the address the account had then.
  if (currentEmail !== user.email || email === user.email) return []
  return [
    {
      type: 'user.email-changed',
      data: { userId: user.userId, previousEmail: user.email, email, emailVerified: true },
    },
  ]
}
