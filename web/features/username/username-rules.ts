/// The server's username rules (better-auth's username plugin defaults): 3 to 30 characters,
/// letters, digits, `_` and `.`, compared lowercased. Checked here so people learn them before a
/// round trip; problems are reported with the API's own codes.
export const USERNAME_MIN = 3
export const USERNAME_MAX = 30

const USERNAME_SHAPE = /^[a-zA-Z0-9_.]+$/

export type UsernameProblem = 'USERNAME_TOO_SHORT' | 'USERNAME_TOO_LONG' | 'INVALID_USERNAME'

export const usernameProblem = (username: string): UsernameProblem | null => {
  if (username.length < USERNAME_MIN) return 'USERNAME_TOO_SHORT'
  if (username.length > USERNAME_MAX) return 'USERNAME_TOO_LONG'
  return USERNAME_SHAPE.test(username) ? null : 'INVALID_USERNAME'
}

/** How long the username must stay unchanged before the portal asks whether it is free. */
export const AVAILABILITY_DELAY_MS = 500
