/// What can be asked of a user account. Ids, hashes, token hashes and time arrive inside the
/// commands (computed by the caller), so `decide` stays deterministic. Checks that need a secret or
/// a slow hash (a password match, a signed link) are done by the caller and passed in as results.

import type { PasswordFacts, PasswordPolicy } from './password-policy.js'
import type { AdminUpdateUserCommand } from './user.admin-update.js'
import type { CredentialAccount } from './user.events.js'
import type { PasswordlessUserCommand } from './user.passwordless.js'
import type { UsernameLimits } from './username.js'

/** Username fields as the request typed them; checked against `usernameLimits` (default 3 to 30). */
/**
 * The person's own proof for deleting their account, checked by the caller (the slow hash, the
 * session's age against `session.freshAge`) and judged by the decider.
 */
export type OwnerProof = { kind: 'password'; matches: boolean } | { kind: 'fresh-session'; fresh: boolean }

type UsernameInput = { username?: string; displayUsername?: string; usernameLimits?: Partial<UsernameLimits> }

export type UserCommand =
  | PasswordlessUserCommand
  | AdminUpdateUserCommand
  | ({
      type: 'register-user'
      userId: string
      email: string
      name: string
      image: string | null
      credential: CredentialAccount | null
      /** A social provider vouched for the address at sign-up: it counts as verified from the start. */
      emailVerified?: boolean
      /** Send a verification mail right away (emailVerification.sendOnSignUp). */
      sendVerification: boolean
      callbackURL: string | null
      /**
       * Whether the address and the username are already claimed by someone (the caller read the
       * store's claims), for the registration to be refused in better-auth's order (user.register.ts):
       * an operator's creation judges the address, then the username's rules, then its uniqueness.
       * The claims taken in the append still settle a race.
       */
      inUse?: { email: boolean; username: boolean }
      /**
       * A person's own sign-up with a password: the password as the caller measured it and the
       * policy it must meet, judged after the username and the address's shape and before whether
       * the address is taken, as better-auth's sign-up/email answers.
       */
      signUp?: { password: PasswordFacts; passwordPolicy: PasswordPolicy }
    } & UsernameInput)
  /** Mail a verification link to the user's own, still unverified, address. */
  | { type: 'request-verification-email'; email: string; callbackURL: string | null }
  /** A valid verification link for `email` was followed. */
  | { type: 'verify-email'; email: string }
  | {
      type: 'request-password-reset'
      requestId: string
      tokenHash: string
      expiresAt: string
      redirectTo: string | null
      now: string
    }
  /** `sameAsCurrent`: the new password is the one the account has now (checked against its hash). */
  | { type: 'reset-password'; tokenHash: string; passwordHash: string; now: string; sameAsCurrent: boolean }
  | { type: 'change-password'; currentPasswordMatches: boolean; passwordHash: string; sameAsCurrent: boolean }
  | { type: 'set-password'; accountId: string; passwordHash: string }
  /**
   * Unlink the credential (password) account, as better-auth's unlink-account does.
   * `otherAccounts`: the user's linked social accounts, each another way to sign in.
   */
  | {
      type: 'remove-password'
      otherAccounts: number
      allowUnlinkingAll: boolean
      /** The session asking signed in within `session.freshAge` (checked by the edge, judged here). */
      sessionFresh: boolean
    }
  | ({ type: 'update-profile'; name?: string; image?: string | null } & UsernameInput)
  | {
      type: 'change-email'
      newEmail: string
      callbackURL: string | null
      /**
       * The new address belongs to someone else (the caller read its claim): nothing changes and no
       * mail goes out, and the answer, given before, was the same as for a free address.
       */
      takenByAnother?: boolean
    }
  /** The confirmation link sent to the current address was followed. */
  | { type: 'confirm-email-change'; currentEmail: string; newEmail: string; callbackURL: string | null }
  /** The verification link sent to the new address was followed. */
  | { type: 'complete-email-change'; currentEmail: string; newEmail: string }
  | {
      type: 'request-deletion'
      /** How the person proved it is them (the password, or a session fresh enough). */
      proof: OwnerProof
      requestId: string
      tokenHash: string
      expiresAt: string
      callbackURL: string | null
      now: string
    }
  | { type: 'discard-token'; tokenHash: string; now: string }
  /** A password sign-in for this account failed at `now` (the caller checked the password). */
  | { type: 'record-sign-in-failure'; now: string }
  /** An operator (or, for `admin-emails`, the system) sets the user's roles, already checked. */
  | { type: 'set-role'; role: string; grantedBy?: 'admin-emails' }
  /** `operatorId`: the operator's own user id when a person bans (no one may ban themselves). */
  | { type: 'ban-user'; reason: string | null; expiresAt: string | null; operatorId?: string }
  /**
   * update-user's ban fields, as better-auth writes them: each one given replaces the stored value,
   * one left out keeps it; `banned: true` bans, `banned: false` lifts the ban as unban-user does.
   */
  | { type: 'admin-update-ban'; banned?: boolean; reason?: string | null; expiresAt?: string | null }
  | { type: 'unban-user' }
  /** A sign-in found the ban past its expiry at `now`: it lifts itself. */
  | { type: 'lift-expired-ban'; now: string }
  /** An operator gives the user a password, whether or not they had one (no proof asked). */
  | { type: 'admin-set-password'; accountId: string; passwordHash: string }
  /** An operator changes the address, and says whether it counts as verified. */
  | { type: 'admin-set-email'; newEmail: string; emailVerified: boolean }
  /** Deletion with the password checked or a fresh session (`proof: 'verified'`), or a mailed token. */
  | {
      type: 'delete-user'
      /** `verified`: an operator removes the account (no proof asked of them). */
      proof: OwnerProof | { kind: 'verified' } | { kind: 'token'; tokenHash: string; now: string }
      /** Mail the address a notice of the deletion (see `user.deletion-notice-requested`). */
      noticeId?: string
      /** Other key ids to erase with the account (its address's invitee keys), see `user.deleted`. */
      alsoErases?: readonly string[]
      /** An operator removing the account: their own user id (no one may remove themselves). */
      operatorId?: string
      /**
       * The organizations in which this user is the only owner (resolved by the caller from the
       * memberships): while there is one, the account stays, so no organization is left ownerless.
       */
      soleOwnerOf?: readonly string[]
    }
