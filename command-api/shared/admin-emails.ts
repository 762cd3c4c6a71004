/// The first admins: `ADMIN_EMAILS` names addresses whose accounts get the admin role once that
/// address is verified (a verification link, a verified email change, a provider that vouches for
/// it at social sign-up), never before: whoever signs up first with an unverified address gets
/// nothing. Once per account (the aggregate remembers), so an admin who later demotes it is not
/// overruled. Recorded with the system as actor, as is a new account's configured default role.

import { DEFAULT_ROLE } from '../../domain/admin/permissions.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { metadataFor } from '../../domain/shared/metadata.js'
import type { UserEvent } from '../../domain/user/user.events.js'
import { type UserCommand, userClaims, userDecider, userStream } from '../../domain/user/user.js'
import type { CommandContext } from '../context.js'

/** The address `event` proves verified, if it does. */
const verifiedAddressOf = (event: UserEvent): string | null => {
  switch (event.type) {
    case 'user.email-verified':
      return event.data.email
    case 'user.email-changed':
      return event.data.emailVerified ? event.data.email : null
    case 'user.registered':
      return event.data.emailVerified ? event.data.email : null
    default:
      return null
  }
}

/**
 * Call after appending a user's events: the system's role grants. A new account gets the configured
 * `admin.defaultRole` (stored, as better-auth stores it, so changing the option later leaves existing
 * accounts as they are); then the admin role when they verified a listed address. Says whether it
 * set a role, so a caller holding the user's row knows to read it again.
 */
export const grantAdminIfListed = async (
  { handle, clock, config }: Pick<CommandContext, 'handle' | 'clock' | 'config'>,
  origin: RequestOrigin,
  userId: string,
  events: readonly UserEvent[],
): Promise<boolean> => {
  const system = { metadata: metadataFor(origin, { type: 'system' }, clock()), claims: userClaims }
  const { defaultRole } = config.admin
  const registered = events.some((event) => event.type === 'user.registered')
  const defaulted = defaultRole !== DEFAULT_ROLE && registered
  if (defaulted)
    await handle(userDecider, userStream(userId), { type: 'set-role', role: defaultRole }, system)
  if (config.adminEmails.length === 0) return defaulted
  const listed = events.some((event) => {
    const address = verifiedAddressOf(event)
    return address !== null && config.adminEmails.includes(address)
  })
  if (!listed) return defaulted
  const command: UserCommand = { type: 'set-role', role: 'admin', grantedBy: 'admin-emails' }
  await handle(userDecider, userStream(userId), command, system)
  return true
}
