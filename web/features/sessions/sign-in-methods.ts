/// A session's `amr` (how it was signed in: `["pwd", "totp", "mfa"]`) in words, for the Security
/// page and the operator console: "password and an authenticator app".

const WORDS: Record<string, string> = {
  pwd: 'password',
  email: 'a link or code by email',
  social: 'a social account',
  sso: 'single sign-on',
  passkey: 'a passkey',
  totp: 'an authenticator app',
  otp: 'a code by email',
  'backup-code': 'a backup code',
}

/** "password and an authenticator app"; null when the session did not record it (older sessions). */
export const signInMethodsOf = (amr: readonly string[] | null | undefined): string | null => {
  const words = (amr ?? []).map((value) => WORDS[value]).filter((word): word is string => word !== undefined)
  if (words.length === 0) return null
  if (words.length === 1) return words[0] ?? null
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`
}
