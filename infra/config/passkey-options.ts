/// `passkey` in tessera.config.json, with the names of better-auth's passkey plugin options:
///   {"passkey": {"rpID": "example.com", "rpName": "Example", "origin": "https://app.example.com"}}
/// Every key is optional. Unset, the relying party id is BASE_URL's host name and the expected origin
/// BASE_URL's origin (better-auth takes the request's Origin header when no origin is set; Tessera
/// never trusts a header for this). `origin` may list several origins.

export type PasskeyFileOptions = { rpID: string | null; rpName: string; origin: string[] | null }

/** better-auth's rpName falls back to its appName; Tessera's name is its own. */
export const DEFAULT_RP_NAME = 'Tessera'

type Fail = (path: string, reason: string) => Error

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const text = (value: unknown, path: string, fail: Fail): string => {
  if (typeof value !== 'string' || value.trim() === '') throw fail(path, 'must be a non-empty string')
  return value
}

const origins = (value: unknown, fail: Fail): string[] => {
  const list = Array.isArray(value) ? value : [value]
  if (list.length === 0) throw fail('passkey.origin', 'must name at least one origin')
  return list.map((entry, index) => {
    const path = Array.isArray(value) ? `passkey.origin[${index}]` : 'passkey.origin'
    const written = text(entry, path, fail)
    let url: URL
    try {
      url = new URL(written)
    } catch {
      throw fail(path, 'must be an origin such as https://app.example.com')
    }
    if (url.origin !== written || !['http:', 'https:'].includes(url.protocol))
      throw fail(path, `must be an origin (scheme, host and port; no path or trailing slash): ${url.origin}`)
    return written
  })
}

export const parsePasskeyOptions = (value: unknown, fail: Fail): PasskeyFileOptions => {
  if (value === undefined) return { rpID: null, rpName: DEFAULT_RP_NAME, origin: null }
  if (!isObject(value)) throw fail('passkey', 'must be an object')
  const unknown = Object.keys(value).find((key) => !['rpID', 'rpName', 'origin'].includes(key))
  if (unknown !== undefined) throw fail(`passkey.${unknown}`, 'is not a known option (rpID, rpName, origin)')
  return {
    rpID: value.rpID === undefined ? null : text(value.rpID, 'passkey.rpID', fail),
    rpName: value.rpName === undefined ? DEFAULT_RP_NAME : text(value.rpName, 'passkey.rpName', fail),
    origin: value.origin === undefined || value.origin === null ? null : origins(value.origin, fail),
  }
}
