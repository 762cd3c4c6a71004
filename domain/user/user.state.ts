/// The user aggregate's state (user.ts evolves it, user.decide.ts decides on it), in a module of
/// its own so that neither of those two imports the other for its types.

import type { CredentialAccount } from './user.events.js'

/** A one-time token the user was mailed, kept as its hash. */
export type PendingToken = { tokenHash: string; expiresAt: string }

export type ActiveUser = {
  status: 'active'
  userId: string
  email: string
  name: string
  image: string | null
  emailVerified: boolean
  /** Lowercased; null when the user has none. */
  username: string | null
  displayUsername: string | null
  credential: CredentialAccount | null
  resetTokens: PendingToken[]
  deletionTokens: PendingToken[]
  /** The address a verified user asked to move to, once the current address confirmed it. */
  confirmedNewEmail: string | null
  /** When the last failed sign-in was recorded; bounds how often another one is. */
  lastSignInFailureAt: string | null
  /** Comma-separated roles (domain/admin/permissions.ts); null: the default role. */
  role: string | null
  /** Whether a ban is in force (it may have expired: see domain/user/ban.ts). */
  banned: boolean
  /** The ban's reason and end; an operator may set them before, or without, banning. */
  banReason: string | null
  banExpires: string | null
  /** ADMIN_EMAILS granted this account the admin role once; it never does so again. */
  adminEmailsGrantApplied: boolean
}

export type User = { status: 'none' } | ActiveUser | { status: 'deleted'; userId: string }

export const initialState = (): User => ({ status: 'none' })
