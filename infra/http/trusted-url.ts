/// Which callback, redirect and error URLs Tessera may send a browser to: a same-site relative path,
/// or an absolute http(s) URL on a trusted origin. Anything a browser, a proxy or a router could
/// read as pointing elsewhere (`//evil`, `/\evil`, `https:evil`, `trusted@evil`, encoded slashes)
/// is refused, so an attacker cannot turn a sign-in link into an open redirect.

import type { preHandlerHookHandler } from 'fastify'
import { AUTH_ERRORS, type AuthErrorCode } from '../../domain/errors.js'
import { percentDecode } from './percent-decode.js'

// C0 controls, DEL and C1 controls: URL parsers silently drop some of them (tab, newline).
const CONTROL_CHARACTER = /\p{Cc}/u
const ENCODED_SEPARATOR = /%(?:2f|5c)/i
const ABSOLUTE_HTTP = /^https?:\/\/([^/?#]*)/i
// A throwaway origin to resolve relative paths against: if the result leaves it, the path was not one.
const PROBE_ORIGIN = 'https://relative-path.invalid'
// Decoding rounds checked for smuggled separators (`%252f` is `/` two decodes later).
const DECODE_ROUNDS = 3
// Characters of a host label as the URL parser leaves them (lowercase, punycode for IDNs).
const LABEL = '[a-z0-9_-]+'

/** True when `value` is a safe relative path or an http(s) URL whose origin is trusted. */
export const isTrustedUrl = (value: string, trustedOrigins: readonly string[]): boolean => {
  if (value === '' || value !== value.trim() || value.includes('\\') || CONTROL_CHARACTER.test(value))
    return false
  if (value.startsWith('/')) return isSafeRelativePath(value)
  const origin = originOfAbsoluteUrl(value)
  return origin !== null && isTrustedOrigin(origin, trustedOrigins)
}

/**
 * The origin of an absolute http(s) URL written in full (`https://host[:port]...`), or null for
 * anything else, including URLs with userinfo (`https://trusted@evil`, `https://evil@trusted`) and
 * percent-encoded hosts.
 */
export const originOfAbsoluteUrl = (value: string): string | null => {
  const authority = ABSOLUTE_HTTP.exec(value)?.[1]
  if (!authority || authority.includes('@') || authority.includes('%') || CONTROL_CHARACTER.test(value))
    return null
  const url = parseUrl(value)
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password)
    return null
  return url.origin
}

/** Whether an origin (`https://app.example.com:8443`) equals a trusted origin or fits a `*` pattern. */
export const isTrustedOrigin = (origin: string, trustedOrigins: readonly string[]): boolean =>
  trustedOrigins.some((trusted) =>
    trusted.includes('*') ? patternFor(trusted).test(origin) : trusted === origin,
  )

const isSafeRelativePath = (value: string): boolean => {
  const pathEnd = value.search(/[?#]/)
  let path = pathEnd === -1 ? value : value.slice(0, pathEnd)
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    if (path.startsWith('//') || ENCODED_SEPARATOR.test(path) || path.includes('\\')) return false
    if (CONTROL_CHARACTER.test(path)) return false
    path = percentDecode(path)
  }
  const resolved = parseUrl(value, PROBE_ORIGIN)
  // `/..//evil.com` stays on our origin here, but a server that normalises it would emit `//evil.com`.
  return resolved?.origin === PROBE_ORIGIN && !resolved.pathname.startsWith('//')
}

const patterns = new Map<string, RegExp>()

/**
 * `https://*.example.com` as a RegExp over origins. A `*` that is a whole label stands for one or
 * more labels (`a.example.com`, `a.b.example.com`); inside a label (`pr-*`) for one or more label
 * characters. Config validation (infra/config/origins.ts) keeps `*` out of everything but the
 * leftmost host label, so a pattern can never match a different registrable domain.
 */
const patternFor = (trusted: string): RegExp => {
  const cached = patterns.get(trusted)
  if (cached) return cached
  const [scheme = '', hostAndPort = ''] = trusted.split('://')
  const source = hostAndPort
    .split('*')
    .map(escapeRegExp)
    .reduce((joined, part, index, parts) => {
      if (index === 0) return part
      const wholeLabel = parts[index - 1] === '' && index === 1 && part.startsWith('\\.')
      return `${joined}${wholeLabel ? `${LABEL}(?:\\.${LABEL})*` : LABEL}${part}`
    }, '')
  const pattern = new RegExp(`^${escapeRegExp(scheme)}://${source}$`)
  patterns.set(trusted, pattern)
  return pattern
}

const escapeRegExp = (value: string): string => value.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')

const parseUrl = (value: string, base?: string): URL | null => {
  try {
    return new URL(value, base)
  } catch {
    return null
  }
}

/** The request fields that name where a browser goes next, and the error each one fails with. */
export const URL_FIELDS = [
  ['callbackURL', 'INVALID_CALLBACK_URL'],
  ['redirectTo', 'INVALID_REDIRECT_URL'],
  ['errorCallbackURL', 'INVALID_ERROR_CALLBACK_URL'],
  ['newUserCallbackURL', 'INVALID_NEW_USER_CALLBACK_URL'],
] as const satisfies readonly (readonly [string, AuthErrorCode])[]

/**
 * Throws the catalogue error for the first URL field, in a body or a query, that is not trusted.
 * Empty values are left to the route (they mean "no callback"); a value that is not a string, or
 * a repeated query parameter with one bad value, is refused like a bad URL.
 */
export const assertTrustedUrls = (
  sources: readonly unknown[],
  config: { readonly trustedOrigins: readonly string[] },
): void => {
  for (const [field, code] of URL_FIELDS) {
    for (const source of sources) {
      if (typeof source !== 'object' || source === null || !(field in source)) continue
      const value: unknown = Reflect.get(source, field)
      if (!isAcceptable(value, config.trustedOrigins)) throw AUTH_ERRORS.error(code)
    }
  }
}

const isAcceptable = (value: unknown, trustedOrigins: readonly string[]): boolean => {
  if (value === undefined || value === null || value === '') return true
  if (Array.isArray(value)) return value.every((item) => isAcceptable(item, trustedOrigins))
  return typeof value === 'string' && isTrustedUrl(value, trustedOrigins)
}

/**
 * A `preHandler` hook for the API scope: every route that takes one of the URL fields, now or
 * later, is covered. It runs after schema validation, so a malformed body is still a 400 first.
 */
export const trustedUrlsHook =
  (config: { readonly trustedOrigins: readonly string[] }): preHandlerHookHandler =>
  (request, _reply, done) => {
    assertTrustedUrls([request.body, request.query], config)
    done()
  }
