import { isApiError } from '../errors/api-error.js'

/// A session ended elsewhere (signed out on another device, revoked, expired) shows up as a 401 on
/// the next call. The portal then says so on the sign-in page, and a form whose save was refused
/// keeps what was typed in this tab (sessionStorage, keyed by the person) to offer it again after
/// signing back in.

export const SESSION_ENDED_NOTICE =
  'Your session ended (signed out on another device, or expired). Sign in again to continue where you were.'

let ended = false

/** Called on a 401 from a call that needs a session. */
export const noteSessionEnded = (): void => {
  ended = true
}

/** Whether the last session ended under the person's feet (not a sign-out of theirs). */
export const sessionEnded = (): boolean => ended

/** A new session: the old one's ending is no news any more. */
export const forgetSessionEnded = (): void => {
  ended = false
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
