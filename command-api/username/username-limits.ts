/// The configured username rules (tessera.config.json `username`), as the domain takes them.

import type { UsernameLimits } from '../../domain/user/username.js'
import type { CommandContext } from '../context.js'

export const usernameLimits = ({ config }: CommandContext): UsernameLimits => ({
  minLength: config.username.minUsernameLength,
  maxLength: config.username.maxUsernameLength,
})
