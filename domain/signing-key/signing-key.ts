/// The signing-key aggregate: the set of keys that sign Tessera's JWTs, in one stream, so that a
/// rotation (retire the current key, add its successor) is one atomic append and two instances that
/// both want a first key race on one expected version: one key wins. Key material is generated and
/// sealed outside the domain; only the public JWK and the sealed private key arrive here.

import type { Decider } from '../shared/decider.js'

/** The one stream of the key set. */
export const SIGNING_KEYS_STREAM = 'signing-keys'

/** A public JWK: its public members only (kty, crv, x, y, n, e). */
export type PublicJwk = Readonly<Record<string, unknown>>

export type NewSigningKey = {
  kid: string
  alg: string
  publicJwk: PublicJwk
  /** The private JWK sealed under the secret (infra/crypto/jwt/sealed-key.ts); never the key itself. */
  sealedPrivateKey: string
}

/// Events

export type SigningKeyEvent =
  | { type: 'signing-key.created'; data: NewSigningKey & { createdAt: string } }
  | { type: 'signing-key.retired'; data: { kid: string; retiredAt: string } }

/// Commands

export type SigningKeyCommand =
  /**
   * Adds `key` when no key signs, or when the current one is `rotationIntervalSeconds` old (null:
   * never by age). Otherwise nothing: the losers of a race for the first key add none.
   */
  | { type: 'ensure-signing-key'; key: NewSigningKey; now: string; rotationIntervalSeconds: number | null }
  /** Retires the current key (if any) and adds `key`: it signs from `now` on. */
  | { type: 'rotate-signing-key'; key: NewSigningKey; now: string }

/// State

export type SigningKeySet =
  | { status: 'empty'; kids: readonly string[] }
  | { status: 'signing'; current: { kid: string; createdAt: string }; kids: readonly string[] }

export const initialState = (): SigningKeySet => ({ status: 'empty', kids: [] })

/// Evolve: no rules, never throws

export const evolve = (state: SigningKeySet, event: SigningKeyEvent): SigningKeySet => {
  switch (event.type) {
    case 'signing-key.created': {
      const { kid, createdAt } = event.data
      return { status: 'signing', current: { kid, createdAt }, kids: [...state.kids, kid] }
    }
    case 'signing-key.retired':
      return state.status === 'signing' && state.current.kid === event.data.kid
        ? { status: 'empty', kids: state.kids }
        : state
    default:
      return state
  }
}

/// Decide: every rule

export const decide = (command: SigningKeyCommand, state: SigningKeySet): SigningKeyEvent[] => {
  // A key the set already holds (the same command retried) is not added twice.
  if (state.kids.includes(command.key.kid)) return []
  switch (command.type) {
    case 'ensure-signing-key':
      return isDue(command, state) ? replaceCurrent(state, command.key, command.now) : []
    case 'rotate-signing-key':
      return replaceCurrent(state, command.key, command.now)
  }
}

const isDue = (
  { now, rotationIntervalSeconds }: Extract<SigningKeyCommand, { type: 'ensure-signing-key' }>,
  state: SigningKeySet,
): boolean => {
  if (state.status === 'empty') return true
  if (rotationIntervalSeconds === null) return false
  return Date.parse(now) - Date.parse(state.current.createdAt) >= rotationIntervalSeconds * 1000
}

const replaceCurrent = (state: SigningKeySet, key: NewSigningKey, now: string): SigningKeyEvent[] => [
  ...(state.status === 'signing'
    ? [{ type: 'signing-key.retired' as const, data: { kid: state.current.kid, retiredAt: now } }]
    : []),
  { type: 'signing-key.created', data: { ...key, createdAt: now } },
]

export const signingKeyDecider: Decider<SigningKeyCommand, SigningKeyEvent, SigningKeySet> = {
  decide,
  evolve,
  initialState,
}
