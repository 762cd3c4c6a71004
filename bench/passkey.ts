/// Passkey sign-in's first step (issue 33) on both servers: `GET /passkey/generate-authenticate-options`
/// without a session, as the sign-in page asks before `navigator.credentials.get` (discoverable
/// credentials). Right when it answers a fresh challenge and sets the challenge cookie. The second
/// step (`verify-authentication`, a signed assertion) is not measured yet.

import type { ScenarioSpec, Shot, Timing } from './load.js'
import { isRecord, parse } from './shots.js'

const authenticateOptionsShot = (): Shot => ({
  kind: 'passkey/generate-authenticate-options',
  method: 'GET',
  path: '/api/auth/passkey/generate-authenticate-options',
  headers: {},
  isCorrect: (body, headers) => {
    const value = parse(body)
    return (
      isRecord(value) &&
      typeof value.challenge === 'string' &&
      value.challenge.length >= 16 &&
      headers['set-cookie'] !== undefined
    )
  },
})

export const passkeyScenarios = (timing: Timing): ScenarioSpec[] => [
  {
    name: 'passkey/generate-authenticate-options c16',
    connections: 16,
    ...timing,
    next: authenticateOptionsShot,
  },
]
