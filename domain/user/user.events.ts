/// Everything that can happen to a user account. Personal data sits in known fields (email, name,
/// image, password hashes) so it can be encrypted per user and erased by destroying the key.
///
/// Raw one-time tokens never appear here: an event holds a random `requestId` and the SHA-256 of
/// the token; the mail reactor derives the same token from the requestId with the server secret
/// (see infra/crypto/derived-tokens.ts), so the raw value exists only in the mail and the link.

export type CredentialAccount = { accountId: string; passwordHash: string }

/** The password's account as better-auth names its provider (`providerId: 'credential'`). */
export const CREDENTIAL_PROVIDER = 'credential'

export type UserEvent =
  | {
      type: 'user.registered'
      data: {
        userId: string
        email: string
        name: string
        image: string | null
        emailVerified: boolean
        credential: CredentialAccount | null
        /** Lowercased, unique (claim `user.username`); absent when signed up without one. */
        username?: string
        /** The username as typed, shown to people; absent when signed up without one. */
        displayUsername?: string
      }
    }
  /** Mail a verification link (an HS256 token, 1 hour) for `email` to `email`. */
  | {
      type: 'user.verification-email-requested'
      data: { userId: string; email: string; callbackURL: string | null }
    }
  | { type: 'user.email-verified'; data: { userId: string; email: string } }
  /** Mail a reset link; the token (24 chars) is derived from `requestId`, stored as `tokenHash`. */
  | {
      type: 'user.password-reset-requested'
      data: {
        userId: string
        email: string
        requestId: string
        tokenHash: string
        expiresAt: string
        redirectTo: string | null
      }
    }
  | { type: 'user.password-reset'; data: { userId: string; tokenHash: string; passwordHash: string } }
  | { type: 'user.password-changed'; data: { userId: string; passwordHash: string } }
  /** A server-side operation gave a password to a user who had none (e.g. social only). */
  | { type: 'user.password-set'; data: { userId: string; accountId: string; passwordHash: string } }
  /** The credential account was unlinked: no password signs in any more (social accounts do). */
  | { type: 'user.password-removed'; data: { userId: string; accountId: string } }
  | { type: 'user.profile-updated'; data: { userId: string; name?: string; image?: string | null } }
  /**
   * The username or its display form changed; both hold their new values. `previousUsername` lets
   * the store release the old claim (null when the user had none).
   */
  | {
      type: 'user.username-changed'
      data: {
        userId: string
        username: string | null
        displayUsername: string | null
        previousUsername: string | null
      }
    }
  /** A verified user asked to move to `newEmail`: mail a confirmation link to the current address. */
  | {
      type: 'user.email-change-requested'
      data: { userId: string; currentEmail: string; newEmail: string; callbackURL: string | null }
    }
  /** The current address confirmed: mail a verification link to the new one. */
  | {
      type: 'user.email-change-confirmed'
      data: { userId: string; currentEmail: string; newEmail: string; callbackURL: string | null }
    }
  | {
      type: 'user.email-changed'
      data: { userId: string; previousEmail: string; email: string; emailVerified: boolean }
    }
  /** Mail a deletion link; the token (32 chars) is derived from `requestId`, stored as `tokenHash`. */
  | {
      type: 'user.deletion-requested'
      data: {
        userId: string
        email: string
        requestId: string
        tokenHash: string
        expiresAt: string
        callbackURL: string | null
      }
    }
  /** An expired one-time token was looked up and discarded (spec: expired values go when looked up). */
  | { type: 'user.token-discarded'; data: { userId: string; tokenHash: string } }
  /**
   * A password sign-in named this account (by email or username) with a wrong password. Recorded
   * after the refusal has gone out, at most one a minute. Nothing personal in `data`: where the
   * attempt came from is the metadata's IP and user agent, sealed under this user's key.
   */
  | { type: 'user.sign-in-failed'; data: { userId: string; failedAt: string } }
  /** `email` (and `username`) let the store release their claims so they can be used again. */
  | {
      type: 'user.deleted'
      /**
       * `alsoErases`: key ids erased in the same transaction as the user's own (the keys invitations
       * to the address were sealed under). Names, not personal data: HMACs nobody can invert.
       */
      data: { userId: string; email: string; username?: string; alsoErases?: string[] }
    }
  /**
   * Mail the deleted account's address that it was deleted. The address is sealed under a subject
   * of its own (`deletionNoticeSubject`), not the user's, so it outlives the user's erasure just
   * until the notice is handled; `user.deletion-notice-sent` then erases it.
   */
  | {
      type: 'user.deletion-notice-requested'
      data: { userId: string; noticeId: string; email: string; name: string }
    }
  /** The deletion notice was handled (sent, or given up): its address is erased with this event. */
  | { type: 'user.deletion-notice-sent'; data: { userId: string; noticeId: string } }
  /**
   * The user's roles (comma-separated, see domain/admin/permissions.ts) changed. `grantedBy:
   * 'admin-emails'` marks the one-time grant to an address listed in ADMIN_EMAILS, once verified.
   */
  | {
      type: 'user.role-set'
      data: { userId: string; role: string; previousRole: string | null; grantedBy?: 'admin-emails' }
    }
  /**
   * Banned by an operator: no sign-in by any method until `expiresAt` (null: until unbanned).
   * `reason` is null when none was given (better-auth's update-user `{banned: true}` leaves it so).
   */
  | { type: 'user.banned'; data: { userId: string; reason: string | null; expiresAt: string | null } }
  /**
   * An operator set the ban's reason or end without banning or lifting (better-auth's update-user
   * writes `banReason` and `banExpires` on their own): the values as they now stand.
   */
  | {
      type: 'user.ban-details-set'
      data: { userId: string; reason: string | null; expiresAt: string | null }
    }
  /** The ban ended: lifted by an operator, or (`expired`) found past its expiry at a sign-in. */
  | { type: 'user.unbanned'; data: { userId: string; expired: boolean } }

export type UserEventType = UserEvent['type']

/** Events that make the mail reactor send a mail. */
export const MAIL_EVENT_TYPES = [
  'user.verification-email-requested',
  'user.password-reset-requested',
  'user.email-change-requested',
  'user.email-change-confirmed',
  'user.deletion-requested',
] as const satisfies readonly UserEventType[]
