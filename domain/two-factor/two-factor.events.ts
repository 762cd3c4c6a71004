/// The two-factor aggregate's events and commands (better-auth's twoFactor plugin, with Tessera's
/// own rules on top: codes accepted once, a per-user lockout, backup codes kept as hashes, the
/// TOTP secret sealed under the user's key). Stream: `two-factor-<userId>`.

/** How the second step was passed. */
export type SecondFactorMethod = 'totp' | 'otp' | 'backup-code'

/** Why every trusted device was forgotten at once. */
export type TrustEndReason = 'password-changed' | 'sessions-revoked' | 'two-factor-disabled'

export type TwoFactorEvent =
  /** `/two-factor/enable` with the TOTP method: a secret and backup codes, the factor not yet on. */
  | {
      type: 'two-factor.totp-secret-created'
      data: { userId: string; secret: string; backupCodeHashes: string[]; createdAt: string }
    }
  /** The factor is on: after the first good TOTP code, or at once for mailed codes. */
  | { type: 'two-factor.enabled'; data: { userId: string; method: 'totp' | 'otp'; enabledAt: string } }
  | { type: 'two-factor.disabled'; data: { userId: string; disabledAt: string } }
  | { type: 'two-factor.backup-codes-generated'; data: { userId: string; codeHashes: string[] } }
  /**
   * A code was accepted. `step` is the TOTP time step it belonged to (replays of it and of any
   * earlier step are refused); `codeHash` names the backup code used up.
   */
  | {
      type: 'two-factor.code-accepted'
      data: { userId: string; method: SecondFactorMethod; step: number | null; codeHash: string | null }
    }
  /** A wrong (or replayed) code; `lockedUntil` is set by the failure that spends the budget. */
  | {
      type: 'two-factor.code-refused'
      data: {
        userId: string
        method: SecondFactorMethod
        challengeHash: string | null
        failures: number
        lockedUntil: string | null
      }
    }
  /** A code to mail (the mail reactor derives it from `requestId`; only its hash is kept). */
  | {
      type: 'two-factor.code-mailed'
      data: { userId: string; requestId: string; codeHash: string; expiresAt: string }
    }
  /** The first factor passed and the second is due: the half-signed-in state of the cookie. */
  | {
      type: 'two-factor.challenge-started'
      data: {
        userId: string
        challengeHash: string
        expiresAt: string
        rememberMe: boolean
        /** How the first factor was passed (`amr`, `['pwd']`); absent from events before it was kept. */
        firstFactor?: string[]
      }
    }
  | {
      type: 'two-factor.challenge-passed'
      data: {
        userId: string
        challengeHash: string
        method: SecondFactorMethod
        rememberMe: boolean
        firstFactor?: string[]
      }
    }
  | { type: 'two-factor.device-trusted'; data: { userId: string; deviceHash: string; expiresAt: string } }
  /** A trusted device signed in without the second step; its trust moves to a fresh token. */
  | {
      type: 'two-factor.device-trust-renewed'
      data: { userId: string; previousHash: string; deviceHash: string; expiresAt: string }
    }
  | { type: 'two-factor.trusted-devices-forgotten'; data: { userId: string; reason: TrustEndReason } }

export type TwoFactorEventType = TwoFactorEvent['type']

/** A device to trust from now on (the cookie holds the token, the log its hash). */
export type NewTrust = { deviceHash: string; expiresAt: string }

/** The half-signed-in sign-in a code answers, when it answers one (no session yet). */
export type ChallengeRef = { challengeHash: string }

type CodeCheck = {
  now: string
  /** Null when a signed-in person manages their own factor. */
  challenge: ChallengeRef | null
  trust: NewTrust | null
}

export type TwoFactorCommand =
  | {
      type: 'enable-totp'
      userId: string
      passwordMatches: boolean
      secret: string
      backupCodeHashes: string[]
      now: string
    }
  | { type: 'enable-otp'; userId: string; passwordMatches: boolean; now: string }
  | { type: 'disable'; userId: string; passwordMatches: boolean; now: string }
  | { type: 'generate-backup-codes'; userId: string; passwordMatches: boolean; codeHashes: string[] }
  /** `matchedStep`: the highest time step (±1 around now) whose code equals the one given; null: none. */
  | ({ type: 'verify-totp'; userId: string; matchedStep: number | null } & CodeCheck)
  /** `codeHashes`: the typed code hashed under each accepted secret (a rotation keeps a code good). */
  | ({ type: 'verify-otp'; userId: string; codeHashes: readonly string[] } & CodeCheck)
  | ({ type: 'verify-backup-code'; userId: string; codeHash: string } & CodeCheck)
  | {
      type: 'send-otp'
      userId: string
      requestId: string
      codeHash: string
      expiresAt: string
      challenge: ChallengeRef | null
      now: string
    }
  /**
   * A first factor passed. With the factor on, a challenge starts unless `trustedDeviceHash` names
   * a device still trusted (its trust then moves to `renewedTrust`); with it off, nothing happens.
   */
  | {
      type: 'begin-sign-in'
      userId: string
      challengeHash: string
      expiresAt: string
      rememberMe: boolean
      /** How the first factor was passed (`amr`), for the session the second step will start. */
      firstFactor: string[]
      trustedDeviceHash: string | null
      renewedTrust: NewTrust
      now: string
    }
  | { type: 'forget-trusted-devices'; userId: string; reason: TrustEndReason }
