import { isApiError } from '../errors/api-error.js'

/// A session ended elsewhere (signed out on another device, revoked, expired) shows up as a 401 on
/// the next call. The portal then says so on the sign-in page, and a form whose save was refused
/// keeps what was typed in this tab (sessionStorage, keyed by the person) to offer it again after
/// signing back in.

export const SESSION_ENDED_NOTICE =
  'Your session ended (signed out on another device, or expired). Sign in again to continue where you were.'

let ended = false
// This tab showed a signed-in session. When get-session later answers "nobody" without the person
// having left (sign-out, deleted account), the session ended under their feet, even if no 401 came
// first: a get-session re-asked on focus can answer before the refused save does.
let signedIn = false

/** Called on a 401 from a call that needs a session. */
export const noteSessionEnded = (): void => {
  ended = true
}

/** Whether the last session ended under the person's feet (not a sign-out of theirs). */
export const sessionEnded = (): boolean => ended || signedIn

/** A session is on screen: an earlier one's ending is no news any more. */
export const noteSignedIn = (): void => {
  ended = false
  signedIn = true
}

/** The person left on purpose (signed out, deleted the account): nothing ended under their feet. */
export const noteLeftOnPurpose = (): void => {
  ended = false
  signedIn = false
}

export const isSessionEndedError = (error: unknown): boolean => isApiError(error) && error.status === 401

const keyOf = (form: string, userId: string) => `tessera:draft:${form}:${userId}`

/** Keeps what the person typed, for this tab only, until saved. */
export const keepDraft = (form: string, userId: string, values: Record<string, string>): void => {
  try {
    sessionStorage.setItem(keyOf(form, userId), JSON.stringify(values))
  } catch {
    // Storage full or refused (private mode): the draft is lost, as it was before.
  }
}

/** The draft kept for this person's form, if any. */
export const draftOf = <Values extends Record<string, string>>(
  form: string,
  userId: string,
): Values | null => {
  try {
    const raw = sessionStorage.getItem(keyOf(form, userId))
    return raw ? (JSON.parse(raw) as Values) : null
  } catch {
    return null
  }
}

export const dropDraft = (form: string, userId: string): void => {
  try {
    sessionStorage.removeItem(keyOf(form, userId))
  } catch {
    // Nothing kept, nothing to drop.
  }
}
