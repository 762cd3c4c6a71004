/// Adds query parameters to a callback URL (relative or absolute) without disturbing the rest, and
/// writes a redirect's `Location` so that any URL can be sent.

import type { onSendHookHandler } from 'fastify'

const PLACEHOLDER_ORIGIN = 'http://relative.invalid'

export const withQuery = (url: string, params: Record<string, string>): string => {
  const parsed = new URL(url, PLACEHOLDER_ORIGIN)
  for (const [key, value] of Object.entries(params)) parsed.searchParams.set(key, value)
  return parsed.origin === PLACEHOLDER_ORIGIN
    ? `${parsed.pathname}${parsed.search}${parsed.hash}`
    : parsed.toString()
}

/** Whether the request came from a browser navigating (a link in a mail), not an API client. */
export const acceptsHtml = (request: { headers: { accept?: string | undefined } }): boolean =>
  /\btext\/html\b/.test(request.headers.accept ?? '')

/**
 * A `Location` value as an HTTP header can carry it: characters beyond printable ASCII
 * (`/日本/dashboard`, a space) percent-encoded as UTF-8, escapes already there left alone. Node
 * refuses to write a header holding anything past Latin-1, which turned a sign-in with such a
 * callbackURL into a 500 after its session was made, and the client never got its cookie.
 */
export const encodeLocation = (value: string): string =>
  value.replace(/[^\x21-\x7e]/gu, (character) => encodeURIComponent(character))

/** Encodes whatever `Location` an answer carries, in one place for every route. */
export const locationEncodingHook: onSendHookHandler<unknown> = (_request, reply, payload, done) => {
  const location = reply.getHeader('location')
  if (typeof location === 'string') reply.header('location', encodeLocation(location))
  done(null, payload)
}
