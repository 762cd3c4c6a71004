/// Who the relying party is for WebAuthn: its id (a host name the credentials are scoped to) and the
/// origins a ceremony may come from, from BASE_URL unless `passkey` in tessera.config.json says
/// otherwise; and the signature algorithms offered (EdDSA, ES256, RS256, as better-auth offers them
/// by default, named so that a library upgrade cannot add one silently).

import type { Config } from '../../infra/config/config.js'

/** COSE algorithm ids: EdDSA (-8), ES256 (-7), RS256 (-257). */
export const SUPPORTED_ALGORITHMS = [-8, -7, -257]

export type RelyingParty = { id: string; name: string; origins: string[] }

export const relyingPartyOf = (config: Pick<Config, 'baseUrl' | 'passkey'>): RelyingParty => {
  const base = new URL(config.baseUrl)
  return {
    id: config.passkey.rpID ?? base.hostname,
    name: config.passkey.rpName,
    origins: config.passkey.origin ? [...config.passkey.origin] : [base.origin],
  }
}
