import { WebAuthnError } from '@simplewebauthn/browser'
import { isApiError } from '../errors/api-error.js'
import { messageFor } from '../errors/messages.js'

/// What to tell a person when a passkey ceremony did not work: the browser's refusals (cancelled,
/// already registered, not supported) and the server's codes, in words.

const SERVER: Record<string, string> = {
  CHALLENGE_NOT_FOUND: 'That took too long. Please try again.',
  FAILED_TO_VERIFY_REGISTRATION: 'The passkey could not be checked. Please try again.',
  PREVIOUSLY_REGISTERED: 'This passkey is already registered.',
  PASSKEY_NOT_FOUND: 'This passkey is not registered with any account here.',
  AUTHENTICATION_FAILED: 'The passkey could not be checked. Try again, or sign in with your password.',
  SESSION_NOT_FRESH: 'For your safety, sign in again before adding a passkey.',
}

/** Null when the person simply cancelled: nothing to tell them. */
export const passkeyProblem = (error: unknown): string | null => {
  if (error instanceof WebAuthnError) {
    if (error.code === 'ERROR_CEREMONY_ABORTED') return null
    if (error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
      return SERVER.PREVIOUSLY_REGISTERED ?? null
    return 'Your browser or device could not use a passkey here.'
  }
  // The person closed the browser's dialog.
  if (error instanceof Error && error.name === 'NotAllowedError') return null
  if (error instanceof Error && error.name === 'AbortError') return null
  if (isApiError(error) && SERVER[error.code]) return SERVER[error.code] ?? null
  return messageFor(error)
}
