/// The passkey plugin's error codes and messages (@better-auth/passkey 1.7.5's PASSKEY_ERROR_CODES),
/// gathered into the catalogue by domain/errors.ts. Statuses are the ones better-auth answers most
/// often; a route that answers one with another status says so (`errorWithStatus`).
/// FAILED_TO_VERIFY_REGISTRATION is 400 where better-auth answers 500 (README, departures).

import type { ErrorDefinition } from '../shared/errors.js'

export const PASSKEY_ERROR_DEFINITIONS = {
  CHALLENGE_NOT_FOUND: [400, 'Challenge not found'],
  YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY: [401, 'You are not allowed to register this passkey'],
  FAILED_TO_VERIFY_REGISTRATION: [400, 'Failed to verify registration'],
  PASSKEY_NOT_FOUND: [404, 'Passkey not found'],
  AUTHENTICATION_FAILED: [400, 'Authentication failed'],
  UNABLE_TO_CREATE_SESSION: [500, 'Unable to create session'],
  FAILED_TO_UPDATE_PASSKEY: [500, 'Failed to update passkey'],
  // Tessera answers it for a second registration of one authenticator (better-auth's client says it).
  PREVIOUSLY_REGISTERED: [400, 'Previously registered'],
} as const satisfies Record<string, ErrorDefinition>
