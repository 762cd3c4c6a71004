/// A person's own profile: name, picture and username, as update-user changes them (and an operator's
/// update-user, user.operator.ts).

import { AUTH_ERRORS } from '../errors.js'
import type { UserCommand } from './user.commands.js'
import type { UserEvent } from './user.events.js'
import type { ActiveUser } from './user.state.js'
import { parseUsername } from './username.js'

export const updateProfile = (
  command: Extract<UserCommand, { type: 'update-profile' }>,
  user: ActiveUser,
): UserEvent[] => {
  const fields = [command.name, command.image, command.username, command.displayUsername]
  if (fields.every((field) => field === undefined)) throw AUTH_ERRORS.error('NO_FIELDS_TO_UPDATE')
  // Checked before anything changes: a bad username refuses the whole update (400).
  const username =
    command.username === undefined
      ? user.username
      : parseUsername(command.username, 'profile', command.usernameLimits)
  const name = command.name?.trim()
  const changes = {
    ...(name !== undefined && name !== user.name ? { name } : {}),
    ...(command.image !== undefined && command.image !== user.image ? { image: command.image } : {}),
  }
  const events: UserEvent[] =
    Object.keys(changes).length === 0
      ? []
      : [{ type: 'user.profile-updated', data: { userId: user.userId, ...changes } }]
  // As better-auth: a new username leaves the display form alone unless one is given with it.
  const displayUsername = command.displayUsername ?? user.displayUsername
  if (username === user.username && displayUsername === user.displayUsername) return events
  return [
    ...events,
    {
      type: 'user.username-changed',
      data: { userId: user.userId, username, displayUsername, previousUsername: user.username },
    },
  ]
}
