/// The two-factor aggregate's state (two-factor.ts evolves it, two-factor.decide.ts decides on it), in
/// a module of its own so that neither of those two imports the other for its types.

export type Challenge = {
  challengeHash: string
  expiresAt: string
  rememberMe: boolean
  attempts: number
  firstFactor?: string[]
}
export type MailedCode = { codeHash: string; expiresAt: string; attempts: number }
export type TrustedDevice = { deviceHash: string; expiresAt: string }

export type TwoFactor = {
  /** The factor is on: sign-ins need a second step. */
  enabled: boolean
  /** The authenticator secret (base32), sealed in the log; `verified` once a first code matched. */
  totp: { secret: string; verified: boolean } | null
  backupCodeHashes: string[]
  /** The highest TOTP time step accepted: that code and every earlier one are spent. */
  lastTotpStep: number
  mailedCode: MailedCode | null
  challenges: Challenge[]
  /** Wrong codes since the last good one, across sign-ins and methods. */
  failures: number
  lockedUntil: string | null
  trustedDevices: TrustedDevice[]
}
