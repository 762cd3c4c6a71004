/// `tessera organization add-member <organizationId> <email> <role> [teamId]`: the server-only
/// add-member (better-auth's `addMember`, which no browser may call) for an operator at the console;
/// a backend calls the same use case through the server API (`POST /organization/add-member`). The
/// CLI acts as the system; roles may be comma-separated ('admin,member').

import { randomUUID } from 'node:crypto'
import pino from 'pino'
import { addMember } from '../../command-api/organization/organizations.js'
import { normalizeEmail } from '../../domain/user/email.js'
import { ConfigError, loadConfig } from '../../infra/config/config.js'
import { findUserByEmail } from '../../projections/users/users.repository.js'
import { createTessera } from '../server/tessera.js'

const USAGE = 'Usage: tessera organization add-member <organizationId> <email> <role> [teamId]'

export const organizationCommand = async (args: readonly string[]) => {
  const [action, organizationId, email, role, teamId, ...rest] = args
  if (action !== 'add-member' || !organizationId || !email || !role || rest.length > 0)
    throw new ConfigError('organization', USAGE)
  const config = loadConfig()
  const tessera = await createTessera({ config, logger: pino({ level: 'warn' }), role: 'projector' })
  try {
    const user = await findUserByEmail(tessera.ctx.db, normalizeEmail(email))
    if (!user) throw new Error(`No user with the email ${email}`)
    const origin = { requestId: randomUUID(), ip: null, userAgent: 'tessera-cli' }
    const member = await addMember(
      tessera.ctx,
      origin,
      { kind: 'server', actor: { type: 'system' } },
      { userId: user.id, role, organizationId, ...(teamId ? { teamId } : {}) },
    )
    if (tessera.ctx.readYourWrites.settle(origin.requestId))
      console.warn('The read models do not show it yet (see `tessera projections status`).')
    console.log(`${user.email} is now a member (${member.role}) of ${organizationId}: member ${member.id}.`)
  } finally {
    await tessera.close()
  }
}
