/// The server's password length rule (spec: 8 to 128 characters), checked here too so people
/// learn it before a round trip. Problems are reported with the API's own codes.
export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 128

export type PasswordProblem = 'PASSWORD_TOO_SHORT' | 'PASSWORD_TOO_LONG'

export const passwordProblem = (password: string): PasswordProblem | null => {
  if (password.length < PASSWORD_MIN) return 'PASSWORD_TOO_SHORT'
  if (password.length > PASSWORD_MAX) return 'PASSWORD_TOO_LONG'
  return null
}
