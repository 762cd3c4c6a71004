/// Registration's rules. The caller reads whether the address and the username are already claimed
/// (the store's claims) and measures the password; the decider refuses, in the order better-auth
/// answers: a person's own sign-up (sign-up/email with the username plugin) judges the username's
/// rules and uniqueness, then the address's shape, the password's policy and whether the address is
/// taken; an operator's creation (admin create-user) judges the address in use first. The claims
/// taken in the append still settle a race between two registrations.

import { AUTH_ERRORS } from '../errors.js'
import { parseEmail } from './email.js'
import { refuseWeakPassword } from './password-policy.js'
import type { UserCommand } from './user.commands.js'
import type { UserEvent } from './user.events.js'
import type { User } from './user.state.js'
import { type SignUpUsernames, signUpUsernames } from './username.js'

type Register = Extract<UserCommand, { type: 'register-user' }>

/** The username fields to store, after every refusal of the registration's own order. */
const judged = (command: Register): SignUpUsernames & { email: string } => {
  const { inUse, signUp } = command
  if (signUp) {
    const usernames = signUpUsernames(command, command.usernameLimits)
    if (inUse?.username) throw AUTH_ERRORS.error('USERNAME_IS_ALREADY_TAKEN')
    const email = parseEmail(command.email)
    refuseWeakPassword(signUp.password, signUp.passwordPolicy)
    // As better-auth's sign-up/email: an address in use is 422.
    if (inUse?.email) throw AUTH_ERRORS.error('USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL')
    return { ...usernames, email }
  }
  // An operator's creation looks the address up before the username plugin's rules run (the
  // admin route answers it 400; the edge presents it so).
  if (inUse?.email) throw AUTH_ERRORS.error('USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL')
  const usernames = signUpUsernames(command, command.usernameLimits)
  if (inUse?.username) throw AUTH_ERRORS.error('USERNAME_IS_ALREADY_TAKEN')
  return { ...usernames, email: parseEmail(command.email) }
}

export const register = (command: Register, state: User): UserEvent[] => {
  if (state.status !== 'none') throw AUTH_ERRORS.error('USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL')
  const { userId, name, image, credential, sendVerification, callbackURL } = command
  const { username, displayUsername, email } = judged(command)
  const registered: UserEvent = {
    type: 'user.registered',
    data: {
      userId,
      email,
      name: name.trim(),
      image,
      emailVerified: command.emailVerified === true,
      credential,
      ...(username !== null ? { username } : {}),
      ...(displayUsername !== null ? { displayUsername } : {}),
    },
  }
  // An address already verified (a provider vouched for it) needs no link.
  if (!sendVerification || registered.data.emailVerified) return [registered]
  return [registered, { type: 'user.verification-email-requested', data: { userId, email, callbackURL } }]
}
