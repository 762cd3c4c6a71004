/// Whether a ban keeps someone out, shared by every way in (password, username, social, API key,
/// impersonation): each calls `banStanding` before it starts a session. Pure: time comes in.

export type BanFields = { banned: boolean; banExpires: Date | string | null }

/**
 * `none`: not banned. `banned`: refused with BANNED_USER. `expired`: the ban ran out; the caller
 * lets the person in and records that the ban lifted itself.
 */
export type BanStanding = 'none' | 'banned' | 'expired'

export const banStanding = ({ banned, banExpires }: BanFields, now: Date): BanStanding => {
  if (!banned) return 'none'
  if (banExpires === null) return 'banned'
  return new Date(banExpires).getTime() <= now.getTime() ? 'expired' : 'banned'
}

/** better-auth's reason when an operator gives none. */
export const DEFAULT_BAN_REASON = 'No reason'
