/// A signed-in person managing their own second factor: turning it on (a TOTP secret and backup
/// codes, or mailed codes), showing the authenticator URI again, new backup codes, turning it off.
/// Each asks for the password, as better-auth does; the password is checked here (a hash even
/// when the account has none, so timing says nothing) and its verdict judged by the decider.

import type { Actor, RequestOrigin } from '../../domain/shared/metadata.js'
import { assertMayShowTotpUri } from '../../domain/two-factor/two-factor.decide.js'
import { burnPasswordCheck, verifyPassword } from '../../infra/crypto/password.js'
import { newTotpSecret, totpUri } from '../../infra/crypto/totp.js'
import { backupCodeHash, newBackupCodes } from '../../infra/crypto/two-factor-codes.js'
import type { CommandContext } from '../context.js'
import { loadTwoFactor, runTwoFactorCommand } from './run-two-factor.js'

export type Owner = { userId: string; email: string }

const passwordMatches = async (ctx: CommandContext, userId: string, password: string): Promise<boolean> => {
  const stored = await ctx.lookups.users.passwordHashOf(userId)
  return stored ? verifyPassword(stored, password) : burnPasswordCheck(password)
}

const uriFor = (ctx: CommandContext, secret: string, email: string, issuer?: string) =>
  totpUri(secret, {
    issuer: issuer ?? ctx.config.twoFactor.issuer,
    account: email,
    ...ctx.config.twoFactor.totpOptions,
  })

export const enableTotp = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  owner: Owner,
  input: { password: string; issuer?: string },
): Promise<{ totpURI: string; backupCodes: string[] }> => {
  const secret = newTotpSecret()
  const backupCodes = newBackupCodes(ctx.config.twoFactor.backupCodeOptions)
  await runTwoFactorCommand(ctx, origin, owner.userId, {
    type: 'enable-totp',
    userId: owner.userId,
    passwordMatches: await passwordMatches(ctx, owner.userId, input.password),
    secret,
    backupCodeHashes: backupCodes.map(backupCodeHash),
    now: ctx.clock().toISOString(),
  })
  return { totpURI: uriFor(ctx, secret, owner.email, input.issuer), backupCodes }
}

/** Turning mailed codes on, or the factor off: each needs the password and nothing else. */
const withPasswordOnly =
  (type: 'enable-otp' | 'disable') =>
  async (ctx: CommandContext, origin: RequestOrigin, owner: Owner, password: string): Promise<void> => {
    await runTwoFactorCommand(ctx, origin, owner.userId, {
      type,
      userId: owner.userId,
      passwordMatches: await passwordMatches(ctx, owner.userId, password),
      now: ctx.clock().toISOString(),
    })
  }

export const enableMailedCodes = withPasswordOnly('enable-otp')
export const disableTwoFactor = withPasswordOnly('disable')

export const regenerateBackupCodes = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  owner: Owner,
  password: string,
): Promise<string[]> => {
  const backupCodes = newBackupCodes(ctx.config.twoFactor.backupCodeOptions)
  await runTwoFactorCommand(ctx, origin, owner.userId, {
    type: 'generate-backup-codes',
    userId: owner.userId,
    passwordMatches: await passwordMatches(ctx, owner.userId, password),
    codeHashes: backupCodes.map(backupCodeHash),
  })
  return backupCodes
}

/** The authenticator URI again (to set up a second device). Reads only: nothing is recorded. */
export const showTotpUri = async (ctx: CommandContext, owner: Owner, password: string): Promise<string> => {
  const [state, matches] = await Promise.all([
    loadTwoFactor(ctx.store, owner.userId),
    passwordMatches(ctx, owner.userId, password),
  ])
  return uriFor(ctx, assertMayShowTotpUri(state, matches), owner.email)
}

/** Ends every trusted device: after a password change or "sign out everywhere". */
export const forgetTrustedDevices = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  userId: string,
  reason: 'password-changed' | 'sessions-revoked',
  actor?: Actor,
): Promise<void> => {
  await runTwoFactorCommand(ctx, origin, userId, { type: 'forget-trusted-devices', userId, reason }, actor)
}
