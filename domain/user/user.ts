/// The user aggregate: the person's identity and their credential (email + password) account.
/// Stream: `user-<id>`. Email uniqueness is a store-level claim (`user.email`), not a rule here.

import { AUTH_ERRORS } from '../errors.js'
import type { Decider } from '../shared/decider.js'
import { parseEmail } from './email.js'

export const userStream = (userId: string): string => `user-${userId}`

export const EMAIL_CLAIM_SCOPE = 'user.email'

/// Events

export type CredentialAccount = { accountId: string; passwordHash: string }

export type UserEvent = {
  type: 'user.registered'
  data: {
    userId: string
    email: string
    name: string
    image: string | null
    emailVerified: boolean
    credential: CredentialAccount | null
  }
}

/// Commands: ids, hashes and time arrive inside them, so `decide` stays deterministic.

export type UserCommand = {
  type: 'register-user'
  userId: string
  email: string
  name: string
  image: string | null
  credential: CredentialAccount | null
}

/// State

export type User =
  | { status: 'none' }
  | {
      status: 'active'
      userId: string
      email: string
      name: string
      image: string | null
      emailVerified: boolean
      credential: CredentialAccount | null
    }

export const initialState = (): User => ({ status: 'none' })

/// Evolve: no rules, never throws

export const evolve = (state: User, event: UserEvent): User => {
  switch (event.type) {
    case 'user.registered':
      return { status: 'active', ...event.data }
    default:
      return state
  }
}

/// Decide: every rule

export const decide = (command: UserCommand, state: User): UserEvent[] => {
  switch (command.type) {
    case 'register-user':
      return register(command, state)
  }
}

const register = (command: UserCommand, state: User): UserEvent[] => {
  if (state.status !== 'none') throw AUTH_ERRORS.error('USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL')
  return [
    {
      type: 'user.registered',
      data: {
        userId: command.userId,
        email: parseEmail(command.email),
        name: command.name.trim(),
        image: command.image,
        emailVerified: false,
        credential: command.credential,
      },
    },
  ]
}

export const userDecider: Decider<UserCommand, UserEvent, User> = { decide, evolve, initialState }

/// Unique values this user's events take or give up, applied by the store atomically with them.
export type ClaimRequest = { op: 'claim' | 'release'; scope: string; value: string; owner: string }

export const userClaims = (events: readonly UserEvent[]): ClaimRequest[] =>
  events.flatMap((event): ClaimRequest[] => {
    switch (event.type) {
      case 'user.registered':
        return [{ op: 'claim', scope: EMAIL_CLAIM_SCOPE, value: event.data.email, owner: event.data.userId }]
      default:
        return []
    }
  })
