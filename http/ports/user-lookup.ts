/// What command use cases read of people from the users read model, as a port on their context
/// (`CommandContext.lookups.users`): command-api never imports projections/, so a read model can
/// change its tables without touching a use case. The composition root implements it over the
/// users repository (app/server/command-lookups.ts).

import type { UserEvent } from '../../domain/user/user.events.js'
import type { UserStanding } from '../../projections/users/user-standing.js'
import type { FoundCredential } from '../../projections/users/users.repository.js'
import type { UserRow } from '../../projections/users/users.table.js'

/** A person as the users read model holds them (snake_case, as the presenters take it). */
export type KnownUser = UserRow

/** A person found by an identifier, with the hash of their password (null without one). */
/** The person's row with whether a directory deactivated them, read in one statement. */
export type { FoundCredential, UserStanding }

type Registered = Extract<UserEvent, { type: 'user.registered' }>

export type UserLookup = {
  byId(userId: string): Promise<KnownUser | undefined>
  /** By a normalized address. */
  byEmail(email: string): Promise<KnownUser | undefined>
  credentialByEmail(email: string): Promise<FoundCredential | undefined>
  credentialByUsername(username: string): Promise<FoundCredential | undefined>
  /** Only the person's ban (a check on every sign-in, which needs none of the rest). */
  banOf(userId: string): Promise<Pick<KnownUser, 'banned' | 'ban_expires'> | undefined>
  /** A directory (SCIM) keeps the person deactivated: the inline record, current on every instance. */
  isDeactivated(userId: string): Promise<boolean>
  /** The row and the deactivation together: may a session start now (the second step of a sign-in). */
  standingOf(userId: string): Promise<UserStanding | undefined>
  /** The hash of the person's password; null when they have none (or do not exist). */
  passwordHashOf(userId: string): Promise<string | null>
  /** The row `user.registered` makes, so a sign-up answers without reading its own write back. */
  registeredRow(data: Registered['data'], at: Date): KnownUser
}
