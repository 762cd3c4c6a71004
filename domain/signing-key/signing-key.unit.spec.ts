import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { type NewSigningKey, type SigningKeyEvent, signingKeyDecider } from './signing-key.js'

const { given } = specFor(signingKeyDecider)

const T0 = '2030-01-01T00:00:00.000Z'
const DAY_LATER = '2030-01-02T00:00:00.000Z'
const HOUR_LATER = '2030-01-01T01:00:00.000Z'

const key = (kid: string): NewSigningKey => ({
  kid,
  alg: 'EdDSA',
  publicJwk: { kty: 'OKP', crv: 'Ed25519', x: kid },
  sealedPrivateKey: `jwk1:${kid}`,
})
const created = (kid: string, createdAt = T0): SigningKeyEvent => ({
  type: 'signing-key.created',
  data: { ...key(kid), createdAt },
})
const retired = (kid: string, retiredAt: string): SigningKeyEvent => ({
  type: 'signing-key.retired',
  data: { kid, retiredAt },
})
const ensure = (kid: string, now: string, rotationIntervalSeconds: number | null = null) =>
  ({ type: 'ensure-signing-key', key: key(kid), now, rotationIntervalSeconds }) as const
const rotate = (kid: string, now: string) => ({ type: 'rotate-signing-key', key: key(kid), now }) as const

describe('the signing-key set', () => {
  it('creates the first key when none exists', () => {
    given([])
      .when(ensure('a', T0))
      .then([created('a')])
  })

  it('adds no second key when one already signs (the loser of a race for the first key)', () => {
    given([created('a')])
      .when(ensure('b', DAY_LATER))
      .then([])
  })

  it('rotates by age once the interval has passed, and not before', () => {
    given([created('a')])
      .when(ensure('b', HOUR_LATER, 86_400))
      .then([])
    given([created('a')])
      .when(ensure('b', DAY_LATER, 86_400))
      .then([retired('a', DAY_LATER), created('b', DAY_LATER)])
  })

  it('rotates on demand: the current key retires and the new one signs from then on', () => {
    given([created('a')])
      .when(rotate('b', HOUR_LATER))
      .then([retired('a', HOUR_LATER), created('b', HOUR_LATER)])
    given([created('a'), retired('a', HOUR_LATER), created('b', HOUR_LATER)])
      .when(rotate('c', DAY_LATER))
      .then([retired('b', DAY_LATER), created('c', DAY_LATER)])
  })

  it('rotating an empty set just creates a key', () => {
    given([])
      .when(rotate('a', T0))
      .then([created('a')])
  })

  it('never adds a key it already holds (a retried command)', () => {
    given([created('a')])
      .when(rotate('a', HOUR_LATER))
      .then([])
  })
})
