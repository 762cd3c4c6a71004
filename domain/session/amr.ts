/// How a session was signed in: its `amr` (OpenID Connect's Authentication Methods References),
/// recorded in `session.started` and kept in the sessions read model. The values are Tessera's own,
/// one per way in, so the portal can say "password and an authenticator app";
/// `domain/oauth-provider/authentication-methods.ts` turns them into RFC 8176's values for an ID token.

import type { SecondFactorMethod } from '../two-factor/two-factor.events.js'

/** How the person proved who they are before any second step. */
export type FirstFactor =
  | 'password'
  | 'magic-link'
  | 'email-otp'
  | 'social'
  | 'email-link'
  | 'passkey'
  | 'sso'

const FIRST_FACTOR_AMR: Record<FirstFactor, string> = {
  password: 'pwd',
  // A mailed link or code proves the mailbox: one value for both.
  'magic-link': 'email',
  'email-otp': 'email',
  'email-link': 'email',
  social: 'social',
  passkey: 'passkey',
  sso: 'sso',
}

const SECOND_FACTOR_AMR: Record<SecondFactorMethod, string> = {
  totp: 'totp',
  otp: 'otp',
  'backup-code': 'backup-code',
}

/** The `amr` of a sign-in by its first factor alone (no second step, or a trusted device). */
export const firstFactorAmr = (factor: FirstFactor): string[] => [FIRST_FACTOR_AMR[factor]]

/**
 * The `amr` of a sign-in finished by a second step: the first factor's (unknown for a challenge
 * begun before it was kept), the method, and `mfa`.
 */
export const secondStepAmr = (firstFactor: string[] | undefined, method: SecondFactorMethod): string[] => [
  ...(firstFactor ?? []),
  SECOND_FACTOR_AMR[method],
  'mfa',
]
