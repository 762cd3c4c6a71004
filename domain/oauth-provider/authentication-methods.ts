/// How the person signed in, in the words relying parties read in an ID token: `amr` (RFC 8176's
/// registered values) and `acr`, from the names a Tessera session records for its sign-in
/// (`session.started`'s `amr`). Unknown names are left out rather than guessed; a session that
/// records nothing gives no `amr` and `acr` "0" (OpenID Connect Core 2: no assurance asserted).

/** Tessera's names for sign-in factors, to RFC 8176's. */
const RFC_8176: Record<string, string> = {
  pwd: 'pwd',
  password: 'pwd',
  passkey: 'hwk',
  webauthn: 'hwk',
  hwk: 'hwk',
  otp: 'otp',
  totp: 'otp',
  'email-otp': 'otp',
  'backup-code': 'otp',
  sms: 'sms',
  'magic-link': 'otp',
}

/**
 * `acr` values Tessera asserts: "0" nothing known; "1" one factor (a password, a mailed code or
 * link); "2" a phishing-resistant key (a passkey proves possession and, usually, the person) or
 * two distinct factors.
 */
export const ACR_VALUES = ['0', '1', '2'] as const

/** Ways in Tessera records that RFC 8176 has no value for: they count as a factor, named in no claim. */
const UNREGISTERED_FACTORS = new Set(['email', 'social', 'sso'])

export const authenticationClaims = (sessionAmr: readonly string[] | undefined) => {
  const recorded = sessionAmr ?? []
  const methods = [...new Set(recorded.flatMap((name) => (RFC_8176[name] ? [RFC_8176[name]] : [])))]
  const unregistered = new Set(recorded.filter((name) => UNREGISTERED_FACTORS.has(name)))
  const factors = methods.length + unregistered.size
  const multiFactor = factors >= 2
  const amr = multiFactor ? [...methods, 'mfa'] : methods
  const acr = factors === 0 ? '0' : multiFactor || methods.includes('hwk') ? '2' : '1'
  return { amr, acr }
}
