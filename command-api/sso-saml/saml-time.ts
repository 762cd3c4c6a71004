/// The assertion's validity window against the caller's clock, with a small skew either way
/// because the IdP's clock and ours never agree to the second.

import type { AssertionFacts, BearerConfirmation } from './saml-assertion.js'
import { fail } from './saml-errors.js'

const instant = (value: string): number => {
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? fail('SAML_TIMESTAMPS_MISSING', `Unparseable SAML timestamp: ${value}`) : ms
}

const present = (values: Array<string | undefined>): string[] => values.filter((v): v is string => !!v)

/**
 * Refuses an assertion outside its window and answers until when its id must be remembered: past
 * that instant the window alone refuses it. NotOnOrAfter is required (the bearer profile's rule),
 * so no assertion is good forever.
 */
export const checkValidityWindow = (
  facts: AssertionFacts,
  bearer: BearerConfirmation,
  now: Date,
  skewSeconds: number,
): Date => {
  const skew = skewSeconds * 1000
  const nowMs = now.getTime()
  const notBefore = present([facts.conditions.notBefore, bearer.notBefore]).map(instant)
  const notOnOrAfter = present([facts.conditions.notOnOrAfter, bearer.notOnOrAfter]).map(instant)
  if (notOnOrAfter.length === 0) fail('SAML_TIMESTAMPS_MISSING')
  if (notBefore.some((nb) => nowMs < nb - skew)) fail('SAML_ASSERTION_NOT_YET_VALID')
  if (notOnOrAfter.some((end) => nowMs >= end + skew)) fail('SAML_ASSERTION_EXPIRED')
  return new Date(Math.max(...notOnOrAfter) + skew)
}
